import { findInDocument } from '../../../domain/secrets/documents';

// Secrets in structured documents (state machine definitions, SSM documents): named by their path, never shown.

describe('findInDocument', () => {
  it('names a secret by its path in the document', () => {
    const definition = {
      StartAt: 'Call',
      States: {
        Call: {
          Type: 'Task',
          Parameters: { Headers: { Authorization: 'Bearer sk_live_4eC39HqLyjWDarjtT1zdp7dc' }, Method: 'POST' },
        },
      },
    };
    expect(findInDocument(definition)).toEqual([
      { name: 'States.Call.Parameters.Headers.Authorization', kind: 'stripe_key' },
    ]);
  });

  it('reads a value of several lines (a script) line by line, and array items by index', () => {
    const document = {
      mainSteps: [
        { inputs: { runCommand: ['cd /opt', 'echo ok'] } },
        { inputs: { script: 'set -e\nexport TOKEN=ghp_Zx9Qw7Er5Ty3Ui1Op8As6Df4Gh2Jk0LmNbVc\n' } },
      ],
    };
    expect(findInDocument(document)).toEqual([{ name: 'mainSteps[1].inputs.script (line 2)', kind: 'github_token' }]);
  });

  it('finds nothing in references and plain settings', () => {
    expect(
      findInDocument({
        SecretArn: 'arn:aws:secretsmanager:us-east-1:123456789012:secret:db-AbCdEf',
        Password: '{{resolve:secretsmanager:db:SecretString:password}}',
        Region: 'us-east-1',
      }),
    ).toEqual([]);
  });
});
