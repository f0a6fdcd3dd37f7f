import { NoSuchEntityException, ServiceFailureException } from '@aws-sdk/client-iam';
import { ExpiredTokenException, STSServiceException } from '@aws-sdk/client-sts';
import { customerSideErrorCode } from '../../cloud/aws/errors';

// The SDK's own exception classes, built as its deserializer builds them from a response. These are the
// answers moto never gives (it does not evaluate IAM permissions), so they are checked here.
const answered = (name: string, httpStatusCode: number) =>
  new STSServiceException({
    name,
    $fault: httpStatusCode < 500 ? 'client' : 'server',
    $metadata: { httpStatusCode },
    message: name,
  });

describe('customerSideErrorCode', () => {
  it('names refusals about what was asked, without the SDK suffix', () => {
    expect(customerSideErrorCode(answered('AccessDenied', 403))).toBe('AccessDenied');
    expect(customerSideErrorCode(answered('RegionDisabledException', 403))).toBe('RegionDisabled');
    expect(
      customerSideErrorCode(new NoSuchEntityException({ message: 'no role', $metadata: { httpStatusCode: 404 } })),
    ).toBe('NoSuchEntity');
  });

  it('leaves out what a retry may fix, and faults of our own credentials', () => {
    expect(
      customerSideErrorCode(new ServiceFailureException({ message: 'down', $metadata: { httpStatusCode: 500 } })),
    ).toBeUndefined();
    expect(customerSideErrorCode(answered('Throttling', 400))).toBeUndefined();
    expect(customerSideErrorCode(answered('TooManyRequestsException', 429))).toBeUndefined();
    expect(customerSideErrorCode(answered('InvalidClientTokenId', 403))).toBeUndefined();
    expect(
      customerSideErrorCode(new ExpiredTokenException({ message: 'expired', $metadata: { httpStatusCode: 400 } })),
    ).toBeUndefined();
    expect(
      customerSideErrorCode(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED', $metadata: {} })),
    ).toBeUndefined();
    expect(customerSideErrorCode(new Error('socket hang up'))).toBeUndefined();
  });
});
