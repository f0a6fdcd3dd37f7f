import { readFileSync } from 'node:fs';
import path from 'node:path';
import { compileRegex } from '../../../domain/events/sigma/regex';
import { compileSigmaYaml } from '../../../core/detections/sigma-yaml';
import { type CompiledSigma, SIGMA_EVENT_FUEL, type SigmaRule } from '../../../domain/events/sigma/rule';
import { SIGMA_BOUNDS } from '../../../domain/events/sigma/search';

const FIXTURES = path.join(__dirname, '../../fixtures');

/** A rule for the CloudTrail log source with this `detection` block (YAML, indented under `detection:`). */
const ruleWith = (detection: string, extra = '') => `title: Test rule
${extra}logsource:
    product: aws
    service: cloudtrail
detection:
${detection
  .trim()
  .split('\n')
  .map((line) => `    ${line}`)
  .join('\n')}
level: high
`;

function compiled(yaml: string): SigmaRule {
  const result = compileSigmaYaml(yaml);
  if (!result.ok) throw new Error(`expected the rule to compile: ${result.problems.join('; ')}`);
  return result.rule;
}

function problemsOf(yaml: string): string[] {
  const result: CompiledSigma = compileSigmaYaml(yaml);
  if (result.ok) throw new Error('expected the rule to be refused');
  return result.problems;
}

const detailOf = (dir: string, file: string): Record<string, unknown> =>
  JSON.parse(readFileSync(path.join(FIXTURES, dir, file), 'utf8')).detail;

const RECORD = {
  eventSource: 'iam.amazonaws.com',
  eventName: 'CreateAccessKey',
  sourceIPAddress: '203.0.113.24',
  userAgent: 'aws-cli/2.15.30 Python/3.11.8',
  readOnly: false,
  eventVersion: '1.09',
  userIdentity: { type: 'IAMUser', arn: 'arn:aws:iam::123456789012:user/alice', userName: 'alice' },
  requestParameters: { userName: 'bob', tags: ['ops', 'ci'] },
  resources: [{ ARN: 'arn:aws:iam::123456789012:user/bob' }, { ARN: 'arn:aws:kms:us-east-1:123456789012:key/k' }],
  responseElements: null,
  additionalEventData: { bytesTransferredIn: 1024 },
};

const matches = (detection: string, record: Record<string, unknown> = RECORD) =>
  compiled(ruleWith(detection)).matches(record);

describe('Sigma rules: the specification', () => {
  it('maps AND their fields', () => {
    expect(matches('sel:\n    eventSource: iam.amazonaws.com\n    eventName: CreateAccessKey\ncondition: sel')).toBe(
      true,
    );
    expect(matches('sel:\n    eventSource: iam.amazonaws.com\n    eventName: CreateUser\ncondition: sel')).toBe(false);
  });

  it('lists of values OR them', () => {
    expect(matches('sel:\n    eventName:\n        - CreateUser\n        - CreateAccessKey\ncondition: sel')).toBe(true);
    expect(matches('sel:\n    eventName:\n        - CreateUser\n        - DeleteUser\ncondition: sel')).toBe(false);
  });

  it('lists of maps OR the maps', () => {
    const either = 'sel:\n    - eventName: CreateUser\n    - userIdentity.userName: alice\ncondition: sel';
    expect(matches(either)).toBe(true);
    const neither = 'sel:\n    - eventName: CreateUser\n    - userIdentity.userName: bob\ncondition: sel';
    expect(matches(neither)).toBe(false);
  });

  it('matches plain strings case-insensitively', () => {
    expect(matches('sel:\n    eventName: createaccesskey\ncondition: sel')).toBe(true);
    expect(matches('sel:\n    userIdentity.type: IAMUSER\ncondition: sel')).toBe(true);
  });

  it('reads * and ? as wildcards over the whole value', () => {
    expect(matches("sel:\n    eventName: 'Create*Key'\ncondition: sel")).toBe(true);
    expect(matches("sel:\n    eventName: 'Create*'\ncondition: sel")).toBe(true);
    expect(matches("sel:\n    eventName: 'CreateAccessKe?'\ncondition: sel")).toBe(true);
    expect(matches("sel:\n    eventName: 'CreateAccessK?'\ncondition: sel")).toBe(false);
    expect(matches("sel:\n    eventName: 'Access*'\ncondition: sel")).toBe(false);
    expect(matches("sel:\n    eventName: '*'\ncondition: sel")).toBe(true);
  });

  it('escapes wildcards and backslashes as the specification says', () => {
    const record = { path: 'C:\\Windows\\*', question: 'why?', twice: 'a\\\\b' };
    // `\*` is a plain star; `\\*` a backslash then a wildcard; `\\\*` a backslash then a plain star.
    expect(matches("sel:\n    question: 'why\\?'\ncondition: sel", record)).toBe(true);
    expect(matches("sel:\n    question: 'wh\\?'\ncondition: sel", record)).toBe(false);
    expect(matches("sel:\n    path: 'C:\\Windows\\\\*'\ncondition: sel", record)).toBe(true);
    expect(matches("sel:\n    path: 'C:\\Windows\\\\\\*'\ncondition: sel", record)).toBe(true);
    expect(matches("sel:\n    path: 'C:\\Windows\\\\\\*'\ncondition: sel", { path: 'C:\\Windows\\x' })).toBe(false);
    // A backslash before anything else is itself; four stand for two.
    expect(matches("sel:\n    path|startswith: 'C:\\Windows'\ncondition: sel", record)).toBe(true);
    expect(matches("sel:\n    twice: 'a\\\\\\\\b'\ncondition: sel", record)).toBe(true);
  });

  it('matches numbers and booleans whether CloudTrail writes them as numbers or text', () => {
    expect(matches('sel:\n    additionalEventData.bytesTransferredIn: 1024\ncondition: sel')).toBe(true);
    expect(matches('sel:\n    eventVersion: 1.09\ncondition: sel')).toBe(true);
    expect(matches('sel:\n    readOnly: false\ncondition: sel')).toBe(true);
    expect(matches('sel:\n    readOnly: true\ncondition: sel')).toBe(false);
  });

  it('null matches a field absent or null, and an empty string only an empty value', () => {
    expect(matches('sel:\n    errorCode: null\ncondition: sel')).toBe(true);
    expect(matches('sel:\n    responseElements: null\ncondition: sel')).toBe(true);
    expect(matches('sel:\n    eventName: null\ncondition: sel')).toBe(false);
    expect(matches("sel:\n    errorCode: ''\ncondition: sel")).toBe(false);
    expect(matches("sel:\n    errorCode: ''\ncondition: sel", { errorCode: '' })).toBe(true);
    // The specification's example: a selection and not a null field.
    const notNull =
      'selection:\n    eventName: CreateAccessKey\nfilter:\n    errorCode: null\ncondition: selection and not filter';
    expect(matches(notNull)).toBe(false);
    expect(matches(notNull, { ...RECORD, errorCode: 'AccessDenied' })).toBe(true);
  });

  it("the specification's '1 of selection_empty*' example", () => {
    const detection = `selection_main:
    eventName: CreateAccessKey
selection_empty1:
    errorCode: ''
selection_empty2:
    errorCode: null
condition: selection_main and 1 of selection_empty*`;
    expect(matches(detection)).toBe(true);
    expect(matches(detection, { ...RECORD, errorCode: '' })).toBe(true);
    expect(matches(detection, { ...RECORD, errorCode: 'AccessDenied' })).toBe(false);
  });

  it('reads fields through arrays: any item may match', () => {
    expect(matches("sel:\n    resources.ARN|contains: ':key/'\ncondition: sel")).toBe(true);
    expect(matches('sel:\n    requestParameters.tags: ci\ncondition: sel')).toBe(true);
    expect(matches("sel:\n    resources.ARN|contains: ':role/'\ncondition: sel")).toBe(false);
  });

  it('matches a structure as its JSON text', () => {
    expect(matches('sel:\n    requestParameters|contains: \'"userName":"bob"\'\ncondition: sel')).toBe(true);
  });
});

describe('Sigma rules: modifiers', () => {
  const cases: [string, string, string][] = [
    ['contains', "eventName|contains: 'access'", "eventName|contains: 'secret'"],
    ['startswith', "eventName|startswith: 'create'", "eventName|startswith: 'access'"],
    ['endswith', "eventName|endswith: 'key'", "eventName|endswith: 'create'"],
    [
      'contains|all',
      'userAgent|contains|all:\n    - aws-cli\n    - Python',
      'userAgent|contains|all:\n    - aws-cli\n    - boto3',
    ],
    ['re', "eventName|re: '^Create[A-Z][a-z]+Key$'", "eventName|re: '^create'"],
    ['re|i', "eventName|re|i: '^create'", "eventName|re|i: '^delete'"],
    ['re|m', "multi|re|m: '^second$'", "multi|re: '^second$'"],
    ['re|s', "multi|re|s: 'first.second'", "multi|re: 'first.second'"],
    ['cased', "eventName|cased: 'CreateAccessKey'", "eventName|cased: 'createaccesskey'"],
    ['contains|cased', "eventName|contains|cased: 'Access'", "eventName|contains|cased: 'access'"],
    ['cidr (IPv4)', "sourceIPAddress|cidr: '203.0.113.0/24'", "sourceIPAddress|cidr: '198.51.100.0/24'"],
    ['cidr (IPv6)', "v6|cidr: '2001:db8::/32'", "v6|cidr: '2001:db9::/32'"],
    ['exists', 'userIdentity.arn|exists: true', 'errorCode|exists: true'],
    ['exists (false)', 'errorCode|exists: false', 'eventName|exists: false'],
    ['gt', 'additionalEventData.bytesTransferredIn|gt: 1000', 'additionalEventData.bytesTransferredIn|gt: 1024'],
    ['gte', 'additionalEventData.bytesTransferredIn|gte: 1024', 'additionalEventData.bytesTransferredIn|gte: 1025'],
    ['lt', 'additionalEventData.bytesTransferredIn|lt: 2000', 'additionalEventData.bytesTransferredIn|lt: 1024'],
    ['lte', 'additionalEventData.bytesTransferredIn|lte: 1024', 'additionalEventData.bytesTransferredIn|lte: 1023'],
  ];
  const record = { ...RECORD, multi: 'first\nsecond\nthird', v6: '2001:db8:0:1::42' };

  it.each(cases)('%s matches, and its negative does not', (_name, positive, negative) => {
    const indent = (field: string) => field.split('\n').join('\n    ');
    expect(matches(`sel:\n    ${indent(positive)}\ncondition: sel`, record)).toBe(true);
    expect(matches(`sel:\n    ${indent(negative)}\ncondition: sel`, record)).toBe(false);
  });

  it('contains keeps wildcards inside the value', () => {
    expect(matches("sel:\n    userAgent|contains: 'cli/2.*Python'\ncondition: sel")).toBe(true);
    expect(matches("sel:\n    userAgent|contains: 'cli/3.*Python'\ncondition: sel")).toBe(false);
  });

  it('re runs in time linear in the text, whatever the expression', () => {
    const re = (pattern: string, flags = { i: false, m: false, s: false }) => {
      const test = compileRegex(pattern, flags);
      return (text: string) => test(text, { left: Number.MAX_SAFE_INTEGER });
    };
    expect(re('(a+)+$')(`${'a'.repeat(50_000)}!`)).toBe(false);
    expect(re('(a+)+!')(`${'a'.repeat(50_000)}!`)).toBe(true);
    expect(re('^(a|aa)*b$')('a'.repeat(50_000))).toBe(false);
    expect(re('x{2,3}y')('xxxy')).toBe(true);
    expect(re('^x{2,3}y')('xxxxy')).toBe(false);
    expect(re('[^0-9]\\d\\.[a-c]', { i: true, m: false, s: false })('v1.B')).toBe(true);
    expect(re('(?:ab|cd)+e?$')('xxabcd')).toBe(true);
  });

  it('an event spends at most its fuel: past it, a rule does not match', () => {
    const fuel = { left: 10_000 };
    expect(compileRegex('a*b', { i: false, m: false, s: false })(`${'a'.repeat(100_000)}b`, fuel)).toBe(false);
    expect(fuel.left).toBeLessThan(0);
    const rule = compiled(ruleWith("sel:\n    userAgent|contains: 'python'\ncondition: sel"));
    expect(rule.matches(RECORD, { left: 10 })).toBe(false);
    const ordinary = { left: SIGMA_EVENT_FUEL };
    expect(rule.matches(RECORD, ordinary)).toBe(true);
    expect(SIGMA_EVENT_FUEL - ordinary.left).toBeLessThan(1_000);
  });

  it('an IPv4 network does not hold an IPv6 address nor a service name', () => {
    const rule = "sel:\n    sourceIPAddress|cidr: '0.0.0.0/0'\ncondition: sel";
    expect(matches(rule, { sourceIPAddress: '::ffff:203.0.113.1' })).toBe(false);
    expect(matches(rule, { sourceIPAddress: 'ec2.amazonaws.com' })).toBe(false);
    expect(matches(rule, { sourceIPAddress: '198.51.100.7' })).toBe(true);
  });
});

describe('Sigma rules: conditions', () => {
  const detection = (condition: string) =>
    `a:\n    eventName: CreateAccessKey\nb:\n    eventName: CreateUser\nc:\n    userIdentity.userName: alice\ncondition: ${condition}`;
  // On RECORD: a is true, b false, c true.
  it.each([
    ['a and c', true],
    ['a and b', false],
    ['b or c', true],
    ['not b', true],
    ['not a', false],
    // and binds tighter than or: b or (a and c)
    ['b or a and c', true],
    ['b and a or c', true],
    ['b and (a or c)', false],
    // not binds tighter than and: (not b) and a
    ['not b and a', true],
    ['not (b or a)', false],
    ['not b or b', true],
    ['1 of them', true],
    ['all of them', false],
    ['1 of b*', false],
    ['all of a* and not b', true],
    ['not 1 of b* and all of c*', true],
    ['A AND C', false],
  ] as const)('%s is %s', (condition, expected) => {
    if (condition === 'A AND C') {
      // Identifiers are case-sensitive, keywords are not.
      expect(problemsOf(ruleWith(detection(condition)))).toEqual([
        "the condition names 'A', which is no search identifier of the rule",
      ]);
      return;
    }
    expect(matches(detection(condition))).toBe(expected);
  });

  it('keywords are read in any case', () => {
    expect(matches(detection('a AND NOT b'))).toBe(true);
  });

  it('a list of conditions matches when any does', () => {
    expect(
      matches(`a:\n    eventName: CreateUser\nb:\n    eventName: CreateAccessKey\ncondition:\n    - a\n    - b`),
    ).toBe(true);
    expect(matches(`a:\n    eventName: CreateUser\nb:\n    eventName: DeleteUser\ncondition:\n    - a\n    - b`)).toBe(
      false,
    );
  });

  it('them leaves out identifiers starting with an underscore', () => {
    const rule = 'a:\n    eventName: CreateAccessKey\n_b:\n    eventName: CreateUser\ncondition: all of them';
    expect(matches(rule)).toBe(true);
  });
});

describe('Sigma rules: what is refused', () => {
  const valid = ruleWith('sel:\n    eventName: CreateUser\ncondition: sel');

  it.each([
    ['no title', valid.replace('title: Test rule\n', ''), "'title' is required"],
    [
      'another product',
      valid.replace('product: aws', 'product: windows'),
      "logsource product 'windows' is not supported: it must be aws",
    ],
    [
      'another service',
      valid.replace('service: cloudtrail', 'service: s3'),
      "logsource service 's3' is not supported: it must be cloudtrail",
    ],
    [
      'no logsource',
      'title: x\ndetection:\n    sel:\n        a: b\n    condition: sel\n',
      "'logsource' is required: product aws, service cloudtrail",
    ],
    [
      'no detection',
      'title: x\nlogsource:\n    product: aws\n    service: cloudtrail\n',
      "'detection' is required: search identifiers and a condition",
    ],
    [
      'no condition',
      ruleWith('sel:\n    eventName: CreateUser'),
      "detection 'condition' is required: an expression of the search identifiers",
    ],
    [
      'an unknown level',
      valid.replace('level: high', 'level: severe'),
      "level 'severe' is not one of informational, low, medium, high, critical",
    ],
    [
      'an unsupported modifier',
      ruleWith('sel:\n    userIdentity.arn|fieldref: requestParameters.userName\ncondition: sel'),
      "detection.sel: the modifier 'fieldref' of 'userIdentity.arn|fieldref' is not supported (supported: contains, startswith, endswith, all, cased, re, i, m, s, cidr, exists, lt, lte, gt, gte)",
    ],
    [
      'two unsupported modifiers',
      ruleWith('sel:\n    userAgent|base64|windash: x\ncondition: sel'),
      "detection.sel: the modifiers 'base64', 'windash' of 'userAgent|base64|windash' are not supported (supported: contains, startswith, endswith, all, cased, re, i, m, s, cidr, exists, lt, lte, gt, gte)",
    ],
    [
      'modifiers that do not go together',
      ruleWith('sel:\n    userAgent|contains|re: x\ncondition: sel'),
      "detection.sel: 'userAgent|contains|re' combines modifiers that do not go together",
    ],
    [
      'a regex flag without re',
      ruleWith('sel:\n    userAgent|contains|i: x\ncondition: sel'),
      "detection.sel: 'userAgent|contains|i': the modifiers i, m and s go with 're'",
    ],
    [
      'a field that is no path',
      ruleWith("sel:\n    'user Identity.type': Root\ncondition: sel"),
      "detection.sel: 'user Identity.type' is not a CloudTrail record path (names of letters, digits, '_', '-', '@' and '$' joined by dots, at most 8)",
    ],
    [
      'an empty path segment',
      ruleWith('sel:\n    userIdentity..type: Root\ncondition: sel'),
      "detection.sel: 'userIdentity..type' is not a CloudTrail record path (names of letters, digits, '_', '-', '@' and '$' joined by dots, at most 8)",
    ],
    [
      'a keyword search',
      ruleWith('keywords:\n    - evil\n    - worse\ncondition: keywords'),
      'detection.keywords: keyword searches (values with no field) are not supported: name a field',
    ],
    [
      "a keyword search with '|all'",
      ruleWith("keywords:\n    '|all':\n        - a\n        - b\ncondition: keywords"),
      "detection.keywords: keyword searches ('|all') are not supported: name a field",
    ],
    [
      'an aggregation',
      ruleWith('sel:\n    eventName: CreateUser\ncondition: sel | count() by userIdentity.arn > 5'),
      "aggregations in the condition ('| count() ...') are not supported",
    ],
    [
      'a timeframe',
      ruleWith('sel:\n    eventName: CreateUser\ntimeframe: 5m\ncondition: sel'),
      "'timeframe' is not supported: each event is matched alone",
    ],
    [
      'a correlation',
      `${valid}correlation:\n    type: event_count\n`,
      'correlation rules are not supported: each event is matched alone',
    ],
    [
      'an unknown identifier',
      ruleWith('sel:\n    eventName: CreateUser\ncondition: sel and filter'),
      "the condition names 'filter', which is no search identifier of the rule",
    ],
    [
      'a pattern naming nothing',
      ruleWith('sel:\n    eventName: CreateUser\ncondition: sel and not 1 of filter_*'),
      "'1 of filter_*' names no search identifier of the rule",
    ],
    [
      "'2 of'",
      ruleWith('sel:\n    eventName: CreateUser\ncondition: 2 of sel*'),
      "'2 of' is not supported: the condition may say '1 of' or 'all of'",
    ],
    [
      'unbalanced brackets',
      ruleWith('sel:\n    eventName: CreateUser\ncondition: (sel'),
      "')' expected in the condition, found the end",
    ],
    [
      'a dangling operator',
      ruleWith('sel:\n    eventName: CreateUser\ncondition: sel and'),
      'the condition ends where a search identifier was expected',
    ],
    [
      'null in a list',
      ruleWith("sel:\n    errorCode:\n        - ''\n        - null\ncondition: sel"),
      "detection.sel: 'errorCode': null stands alone, with no modifier and in no list",
    ],
    [
      'an empty list',
      ruleWith('sel:\n    eventName: []\ncondition: sel'),
      "detection.sel: 'eventName' has an empty list of values",
    ],
    [
      'a map as a value',
      ruleWith('sel:\n    eventName:\n        a: b\ncondition: sel'),
      "detection.sel: 'eventName' is a map, not a value",
    ],
    [
      'a text for a number',
      ruleWith("sel:\n    a|gt: 'x'\ncondition: sel"),
      "detection.sel: 'a|gt' must be a number for 'gt'",
    ],
    [
      'exists without a boolean',
      ruleWith("sel:\n    a|exists: 'yes'\ncondition: sel"),
      "detection.sel: 'a|exists' takes true or false",
    ],
    [
      'a network that is none',
      ruleWith("sel:\n    sourceIPAddress|cidr: '10.0.0.0/33'\ncondition: sel"),
      "detection.sel: 'sourceIPAddress|cidr': '10.0.0.0/33' is not a CIDR network",
    ],
    [
      'a back-reference',
      ruleWith("sel:\n    a|re: '(a)\\1'\ncondition: sel"),
      "detection.sel: 'a|re': back-references are not supported",
    ],
    [
      'a look-ahead',
      ruleWith("sel:\n    a|re: '(?=a)'\ncondition: sel"),
      "detection.sel: 'a|re': look-around and named groups are not supported",
    ],
    ['a broken regex', ruleWith("sel:\n    a|re: '(a'\ncondition: sel"), "detection.sel: 'a|re': unbalanced '('"],
    [
      'a huge repeat',
      ruleWith("sel:\n    a|re: 'a{1000}'\ncondition: sel"),
      "detection.sel: 'a|re': repetition {1000} is out of range (counts up to 100, low before high)",
    ],
    [
      'a repeat that expands too far',
      ruleWith("sel:\n    a|re: '((a{100}){100}){100}'\ncondition: sel"),
      "detection.sel: 'a|re': the expression is too large (over 2000 steps once repeats are expanded)",
    ],
    [
      'a long regex',
      ruleWith(`sel:\n    a|re: '${'a'.repeat(513)}'\ncondition: sel`),
      "detection.sel: 'a|re': the expression is longer than 512 characters",
    ],
    [
      'a long value',
      ruleWith(`sel:\n    a: '${'a'.repeat(1025)}'\ncondition: sel`),
      "detection.sel: 'a' is longer than 1024 characters",
    ],
    ['not YAML', 'title: [unclosed', 'the rule is not valid YAML'],
    ['not a map', '- a\n- b\n', 'the rule must be a YAML map (title, logsource, detection, ...)'],
    ['an alias', `${valid}x: &a 1\ny: *a\n`, 'YAML aliases are not supported'],
  ])('%s', (_name, yaml, problem) => {
    const problems = problemsOf(yaml);
    expect(problems.some((p) => p.startsWith(problem))).toBe(true);
  });

  it('too many values', () => {
    const values = Array.from({ length: SIGMA_BOUNDS.values + 1 }, (_, i) => `    - v${i}`).join('\n');
    expect(problemsOf(ruleWith(`sel:\n    eventName:\n${values}\ncondition: sel`))).toEqual([
      `the rule has more than ${SIGMA_BOUNDS.values} values`,
    ]);
  });

  it('too many search identifiers', () => {
    const ids = Array.from({ length: 33 }, (_, i) => `s${i}:\n    eventName: x`).join('\n');
    expect(problemsOf(ruleWith(`${ids}\ncondition: 1 of them`))).toContain(
      'detection has more than 32 search identifiers',
    );
  });

  it('a rule larger than 64 KiB', () => {
    expect(problemsOf(`${valid}description: '${'x'.repeat(64 * 1024)}'\n`)).toEqual(['the rule is larger than 64 KiB']);
  });

  it('names every problem of a rule at once', () => {
    const yaml = `title: Two problems
logsource:
    product: gcp
    service: cloudtrail
detection:
    sel:
        eventName|base64: x
    condition: sel
`;
    expect(problemsOf(yaml)).toEqual([
      "logsource product 'gcp' is not supported: it must be aws",
      expect.stringContaining("the modifier 'base64'"),
    ]);
  });

  it('maps the levels to severities, medium when absent', () => {
    const severity = (level: string) => compiled(valid.replace('level: high', level)).severity;
    expect(severity('level: informational')).toBe('LOW');
    expect(severity('level: low')).toBe('LOW');
    expect(severity('level: medium')).toBe('MEDIUM');
    expect(severity('level: high')).toBe('HIGH');
    expect(severity('level: critical')).toBe('CRITICAL');
    expect(severity('')).toBe('MEDIUM');
  });
});

describe("SigmaHQ's AWS CloudTrail rules against EventBridge CloudTrail records", () => {
  const sigmahq = (file: string) => compiled(readFileSync(path.join(FIXTURES, 'sigma', file), 'utf8'));
  const playbook = (file: string) => detailOf('aws-playbook-events', file);
  const events = (file: string) => detailOf('aws-events', file);
  const failedCall = (detail: Record<string, unknown>) => ({
    ...detail,
    errorCode: 'AccessDenied',
    errorMessage: 'User is not authorized to perform this operation',
  });

  it('AWS Config Disabling Channel/Recorder', () => {
    const rule = sigmahq('aws_config_disable_recording.yml');
    expect(rule.title).toBe('AWS Config Disabling Channel/Recorder');
    expect(rule.severity).toBe('HIGH');
    expect(rule.matches(playbook('config-stop-recorder.json'))).toBe(true);
    expect(rule.matches(playbook('logs-delete-log-group.json'))).toBe(false);
  });

  it('AWS VPC Flow Logs Deleted: successful calls only', () => {
    const rule = sigmahq('aws_cloudtrail_vpc_flow_logs_deleted.yml');
    const deleted = playbook('ec2-delete-flow-logs.json');
    expect(rule.matches(deleted)).toBe(true);
    expect(rule.matches(failedCall(deleted))).toBe(false);
    expect(rule.matches(playbook('ec2-share-snapshot.json'))).toBe(false);
  });

  it('AWS S3 Bucket Versioning Disable: reads the request parameters as text', () => {
    const rule = sigmahq('aws_disable_bucket_versioning.yml');
    expect(rule.matches(playbook('s3-put-bucket-versioning-suspended.json'))).toBe(true);
    expect(rule.matches(playbook('s3-put-bucket-versioning-enabled.json'))).toBe(false);
  });

  it('AWS GuardDuty Important Change', () => {
    const rule = sigmahq('aws_guardduty_disruption.yml');
    expect(rule.matches(playbook('guardduty-create-ipset.json'))).toBe(true);
    expect(rule.matches(playbook('guardduty-create-filter-archive.json'))).toBe(false);
  });

  it('AWS SecurityHub Findings Evasion', () => {
    const rule = sigmahq('aws_securityhub_finding_evasion.yml');
    expect(rule.matches(playbook('securityhub-suppress-findings.json'))).toBe(true);
    expect(rule.matches(playbook('securityhub-disable.json'))).toBe(false);
  });

  it('AWS Snapshot Backup Exfiltration', () => {
    const rule = sigmahq('aws_snapshot_backup_exfiltration.yml');
    expect(rule.matches(playbook('ec2-share-snapshot.json'))).toBe(true);
    expect(rule.matches(playbook('ec2-share-ami.json'))).toBe(false);
  });

  it('AWS Successful Console Login Without MFA: NO matches No', () => {
    const rule = sigmahq('aws_cloudtrail_console_login_success_without_mfa.yml');
    expect(rule.matches(events('console-sign-in-no-mfa.json'))).toBe(true);
    expect(rule.matches(events('console-sign-in-mfa.json'))).toBe(false);
  });

  it('AWS Root Credentials: root calls, not AWS service events', () => {
    const rule = sigmahq('aws_root_account_usage.yml');
    const rootCall = events('root-api-call.json');
    expect(rule.matches(rootCall)).toBe(true);
    expect(rule.matches({ ...rootCall, eventType: 'AwsServiceEvent' })).toBe(false);
    expect(rule.matches(events('create-user.json'))).toBe(false);
  });

  it('AWS CloudTrail Important Change', () => {
    const rule = sigmahq('aws_cloudtrail_disable_logging.yml');
    expect(rule.matches(events('delete-trail.json'))).toBe(true);
    expect(rule.matches(events('put-event-selectors-no-management.json'))).toBe(false);
  });

  it('AWS User Login Profile Was Modified is refused: it compares two fields (fieldref)', () => {
    const yaml = readFileSync(path.join(FIXTURES, 'sigma', 'aws_update_login_profile.yml'), 'utf8');
    expect(problemsOf(yaml)).toEqual([
      expect.stringContaining("the modifier 'fieldref' of 'userIdentity.arn|fieldref'"),
    ]);
  });
});
