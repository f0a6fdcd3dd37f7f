import { AccountClient, type AlternateContactType, GetAlternateContactCommand } from '@aws-sdk/client-account';
import { settleAll } from './concurrency';
import { isAbsent } from './failures';
import { globalPart, type ReadContext } from './reader';

async function hasContact(account: AccountClient, type: AlternateContactType): Promise<boolean> {
  try {
    await account.send(new GetAlternateContactCommand({ AlternateContactType: type }));
    return true;
  } catch (err) {
    if (isAbsent(err, 'ResourceNotFound')) return false;
    throw err;
  }
}

export const alternateContactsPart = globalPart({
  part: 'alternateContacts',
  async read({ session }: ReadContext) {
    const account = session.client((config) => new AccountClient(config));
    const [security, billing, operations] = await settleAll([
      hasContact(account, 'SECURITY'),
      hasContact(account, 'BILLING'),
      hasContact(account, 'OPERATIONS'),
    ]);
    return { value: { security, billing, operations } };
  },
});
