import { meOutput, patchMeInput, patchMeOutput } from '../schemas/me';
import { getProfile, renameSelf } from '../services/profile';
import { endpoint } from './operation';

export const meOperations = [
  endpoint({
    operationId: 'getProfile', method: 'get', path: '/me', tag: 'Profile', access: 'viewer',
    summary: 'The caller and their tenant',
    success: { status: 200, description: 'The caller and their tenant', schema: meOutput },
    errors: [],
    handler: ({ deps, caller }) => getProfile(deps, caller),
  }),
  endpoint({
    operationId: 'renameSelf', method: 'patch', path: '/me', tag: 'Profile', access: 'viewer',
    summary: 'Change one\'s display name',
    body: patchMeInput,
    success: { status: 200, description: 'The new name', schema: patchMeOutput },
    errors: [],
    handler: ({ deps, caller, body }) => renameSelf(deps, caller, body.name),
  }),
];
