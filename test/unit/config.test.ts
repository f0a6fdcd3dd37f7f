import { ConfigError, loadConfig } from '../../config/config';

const minimal = { DATABASE_URL: 'postgres://localhost/sentinel', JWT_SECRET: 's'.repeat(32) };

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const config = loadConfig(minimal);
    expect(config.http).toMatchObject({ host: '127.0.0.1', port: 3000 });
    expect(config.temporal).toMatchObject({
      address: '127.0.0.1:7233',
      namespace: 'default',
      taskQueue: 'sentinel',
      tls: false,
    });
    expect(config.auth.idTokenTtlSeconds).toBe(3600);
  });

  it('is frozen', () => {
    const config = loadConfig(minimal);
    expect(Object.isFrozen(config)).toBe(true);
    expect(Object.isFrozen(config.temporal)).toBe(true);
  });

  it('names missing variables without echoing any value', () => {
    expect(() => loadConfig({ JWT_SECRET: 'short-secret-value' })).toThrow(ConfigError);
    try {
      loadConfig({ JWT_SECRET: 'short-secret-value' });
    } catch (err) {
      expect(String(err)).toContain('DATABASE_URL');
      expect(String(err)).toContain('JWT_SECRET');
      expect(String(err)).not.toContain('short-secret-value');
    }
  });

  it('turns TLS on for an API key (Temporal Cloud)', () => {
    expect(loadConfig({ ...minimal, TEMPORAL_API_KEY: 'key' }).temporal.tls).toBe(true);
  });

  it('requires the key with a client certificate', () => {
    expect(() => loadConfig({ ...minimal, TEMPORAL_TLS_CERT_PATH: '/tmp/cert.pem' })).toThrow(/TEMPORAL_TLS_KEY_PATH/);
  });

  it('rejects a malformed port', () => {
    expect(() => loadConfig({ ...minimal, PORT: 'eighty' })).toThrow(/PORT/);
  });

  it('reads TRUST_PROXY as a boolean, a hop count or an address list', () => {
    expect(loadConfig({ ...minimal, TRUST_PROXY: '1' }).http.trustProxy).toBe(1);
    expect(loadConfig({ ...minimal, TRUST_PROXY: 'true' }).http.trustProxy).toBe(true);
    expect(loadConfig({ ...minimal, TRUST_PROXY: 'loopback, 10.0.0.0/8' }).http.trustProxy).toBe(
      'loopback, 10.0.0.0/8',
    );
  });

  it('uses the sandbox only outside production, when no AWS credentials are configured', () => {
    expect(loadConfig(minimal).cloud.provider).toBe('sandbox');
    expect(loadConfig({ ...minimal, AWS_ACCESS_KEY_ID: 'AKIA' }).cloud.provider).toBe('aws');
    expect(loadConfig({ ...minimal, NODE_ENV: 'production' }).cloud.provider).toBe('aws');
    expect(
      loadConfig({ ...minimal, NODE_ENV: 'production', CLOUD_PROVIDER: 'sandbox', ALLOW_SANDBOX_IN_PRODUCTION: 'true' })
        .cloud.provider,
    ).toBe('sandbox');
  });

  it('refuses the sandbox in production unless it is allowed, naming the variable', () => {
    expect(() => loadConfig({ ...minimal, NODE_ENV: 'production', CLOUD_PROVIDER: 'sandbox' })).toThrow(
      /ALLOW_SANDBOX_IN_PRODUCTION=true/,
    );
    expect(() =>
      loadConfig({
        ...minimal,
        NODE_ENV: 'production',
        CLOUD_PROVIDER: 'sandbox',
        ALLOW_SANDBOX_IN_PRODUCTION: 'false',
      }),
    ).toThrow(ConfigError);
    expect(loadConfig({ ...minimal, CLOUD_PROVIDER: 'sandbox' }).cloud.provider).toBe('sandbox');
  });

  it('takes the AWS retry attempts, the calls in flight per scan and the Cost Explorer interval, with defaults', () => {
    expect(loadConfig(minimal).cloud).toMatchObject({
      maxAttempts: 8,
      maxConcurrentCalls: 32,
      costExplorerMinIntervalHours: 12,
    });
    expect(
      loadConfig({
        ...minimal,
        AWS_MAX_ATTEMPTS: '12',
        AWS_MAX_CONCURRENT_CALLS: '8',
        COST_EXPLORER_MIN_INTERVAL_HOURS: '24',
      }).cloud,
    ).toMatchObject({ maxAttempts: 12, maxConcurrentCalls: 8, costExplorerMinIntervalHours: 24 });
    expect(() => loadConfig({ ...minimal, AWS_MAX_ATTEMPTS: '0' })).toThrow(/AWS_MAX_ATTEMPTS/);
    expect(() => loadConfig({ ...minimal, AWS_MAX_CONCURRENT_CALLS: '0' })).toThrow(/AWS_MAX_CONCURRENT_CALLS/);
  });
});
