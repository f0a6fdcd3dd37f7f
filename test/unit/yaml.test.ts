import { parse } from 'yaml';
import { toYaml, type YamlValue } from '../../domain/onboarding/yaml';

// Whatever the writer is given, a real YAML parser must read back exactly that.
const roundTrip = (document: { [key: string]: YamlValue }) => parse(toYaml(document), { version: '1.1' });
const roundTrip12 = (document: { [key: string]: YamlValue }) => parse(toYaml(document));

describe('toYaml', () => {
  it('keeps strings that YAML would read as something else as strings, in YAML 1.1 and 1.2', () => {
    const document = {
      words: ['yes', 'No', 'on', 'OFF', 'true', 'null', 'y', 'n', '~', ''],
      numbers: ['2012-10-17', '0123', '1e3', '12:30', '.5', '0x1F'],
      indicators: [
        '*',
        '&a',
        '!Ref x',
        '- a',
        '? b',
        '#c',
        'a: b',
        'a #b',
        '@x',
        '`y',
        '"q"',
        "'s'",
        '%p',
        '|',
        '>',
        '{}',
        '[]',
      ],
      edges: [
        'ends:',
        'ends.',
        ' leading',
        'trailing ',
        'tab\there',
        'back\\slash',
        'unicode é ✓',
        'arn:aws:iam::aws:policy/SecurityAudit',
      ],
    };
    expect(roundTrip(document)).toEqual(document);
    expect(roundTrip12(document)).toEqual(document);
  });

  it('writes identifiers, ARNs and wildcards plain', () => {
    const text = toYaml({
      Type: 'AWS::IAM::Role',
      Action: 'ce:Get*',
      Arn: 'arn:aws:iam::aws:policy/job-function/ViewOnlyAccess',
    });
    expect(text).toBe(
      'Type: AWS::IAM::Role\nAction: ce:Get*\nArn: arn:aws:iam::aws:policy/job-function/ViewOnlyAccess\n',
    );
  });

  it('writes text spanning lines as a literal block, keeping its line breaks', () => {
    const document = {
      one: 'first\nsecond\n',
      none: 'first\nsecond',
      many: 'first\n\nsecond\n\n\n',
      leading: '  indented\nnext\n',
      crlf: 'a\r\nb\n',
      inList: ['x\ny\n', { nested: 'p\nq\n' }],
    };
    expect(roundTrip12(document)).toEqual(document);
    expect(toYaml({ one: 'first\nsecond\n' })).toBe('one: |\n  first\n  second\n');
  });

  it('writes numbers, booleans, empty and nested collections and keys that need quoting', () => {
    const document: { [key: string]: YamlValue } = {
      n: 2,
      f: 1.5,
      b: true,
      emptyList: [],
      emptyMap: {},
      lists: [[1, 2], [], ['a']],
      maps: [{ a: 1, b: { c: [] } }, {}],
      'Fn::GetAtt': ['Role', 'Arn'],
      'sts:ExternalId': 'x',
      'key with space': 1,
      'ends:': 2,
      '1st': 3,
      '': 4,
    };
    expect(roundTrip12(document)).toEqual(document);
  });
});
