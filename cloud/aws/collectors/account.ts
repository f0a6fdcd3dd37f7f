import { AccountClient, type AlternateContactType, GetAlternateContactCommand } from '@aws-sdk/client-account';
import type { AlternateContacts, Collected } from '../../../domain/inventory';
import { hasCode } from '../errors';
import { settleAll } from './concurrency';
import { readPart } from './refusals';
import type { Session } from './session';

async function hasContact(account: AccountClient, type: AlternateContactType): Promise<boolean> {
  try {
    await account.send(new GetAlternateContactCommand({ AlternateContactType: type }));
    return true;
  } catch (err) {
    if (hasCode(err, 'ResourceNotFound')) return false;
    throw err;
  }
}

export function collectAlternateContacts(session: Session): Promise<Collected<AlternateContacts>> {
  return readPart(async () => {
    const account = session.client((config) => new AccountClient(config));
    const [security, billing, operations] = await settleAll([
      hasContact(account, 'SECURITY'),
      hasContact(account, 'BILLING'),
      hasContact(account, 'OPERATIONS'),
    ]);
    return { security, billing, operations };
  });
}
