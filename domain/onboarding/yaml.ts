// A YAML writer for the templates customers read (domain/onboarding/cloudformation.ts). domain/ imports no packages, and
// templates hold only maps, lists, strings and numbers, so a small writer does: identifiers and ARNs stay
// plain, any other string is a double-quoted JSON string (YAML 1.2 reads JSON strings as they are: no `yes`,
// `2012-10-17` or `*` surprises), and a string spanning lines is a literal block, so an embedded template stays
// readable.

export type YamlValue = string | number | boolean | YamlValue[] | { [key: string]: YamlValue };

/** Keys left unquoted: identifiers such as `Fn::GetAtt` or `sts:ExternalId` (never ending in `:`, never with spaces). */
const PLAIN_KEY = /^[A-Za-z][\w:.-]*\w$|^[A-Za-z]$/;
/**
 * Values left unquoted: a letter, then letters, digits and `_:/.*-`, ending in neither `:` nor `.` (`Allow`,
 * `AWS::IAM::Role`, `arn:aws:iam::aws:policy/SecurityAudit`, `ce:Get*`); never a word YAML 1.1 reads as a
 * boolean or null.
 */
const PLAIN_VALUE = /^[A-Za-z][\w:/.*-]*[\w*/-]$/;
const YAML_WORDS = /^(y|n|yes|no|on|off|true|false|null)$/i;

export function toYaml(document: { [key: string]: YamlValue }): string {
  return `${block(document, 0)}\n`;
}

function block(value: YamlValue[] | { [key: string]: YamlValue }, indent: number): string {
  const pad = ' '.repeat(indent);
  if (Array.isArray(value)) {
    // A list's items open with `- `; a map item continues on the dash's line, its further keys two spaces in.
    return value.map((item) => `${pad}- ${nested(item, indent + 2).trimStart()}`).join('\n');
  }
  return Object.entries(value)
    .map(([key, item]) => {
      const name = PLAIN_KEY.test(key) ? key : JSON.stringify(key);
      return isCollection(item) && !isEmpty(item)
        ? `${pad}${name}:\n${block(item, indent + 2)}`
        : `${pad}${name}: ${scalar(item, indent + 2)}`;
    })
    .join('\n');
}

/** A list item's text at `indent`: a collection as its block, anything else as its scalar. */
function nested(item: YamlValue, indent: number): string {
  return isCollection(item) && !isEmpty(item) ? block(item, indent) : scalar(item, indent);
}

function scalar(value: YamlValue, indent: number): string {
  if (Array.isArray(value)) return '[]';
  if (typeof value === 'object') return '{}';
  if (typeof value !== 'string') return String(value);
  if (isLiteralBlock(value)) return literalBlock(value, indent);
  return PLAIN_VALUE.test(value) && !YAML_WORDS.test(value) ? value : JSON.stringify(value);
}

// A literal block keeps every character but needs text that starts without whitespace (its indentation is read
// from the first line) and without carriage returns (YAML normalises line breaks).
function isLiteralBlock(text: string): boolean {
  return text.includes('\n') && !/^\s/.test(text) && !text.includes('\r');
}

function literalBlock(text: string, indent: number): string {
  // Chomping: `|` keeps one final line break, `|-` none, `|+` all of them.
  const chomp = text.endsWith('\n\n') ? '+' : text.endsWith('\n') ? '' : '-';
  const body = chomp === '+' ? text.slice(0, -1) : text.endsWith('\n') ? text.slice(0, -1) : text;
  const pad = ' '.repeat(indent);
  return `|${chomp}\n${body
    .split('\n')
    .map((line) => (line ? pad + line : ''))
    .join('\n')}`;
}

function isCollection(value: YamlValue): value is YamlValue[] | { [key: string]: YamlValue } {
  return typeof value === 'object';
}

function isEmpty(value: YamlValue[] | { [key: string]: YamlValue }): boolean {
  return Array.isArray(value) ? value.length === 0 : Object.keys(value).length === 0;
}
