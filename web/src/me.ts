import { createContext, useContext } from 'react';
import { hasRole, type Role } from '../../domain/tenancy/roles';
import type { Outputs } from './api';

export type Me = Outputs['me']['get'];

export const MeContext = createContext<Me | null>(null);

export function useMe(): Me {
  const me = useContext(MeContext);
  if (!me) throw new Error('useMe outside the signed-in shell');
  return me;
}

/** What the signed-in user may do; the service checks the same rules, this only hides what would be refused. */
export function useCan(required: Role): boolean {
  return hasRole(useMe().user.role, required);
}
