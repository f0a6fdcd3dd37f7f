import { parse, YAMLError } from 'yaml';
import { type CompiledSigma, compileSigmaRule } from '../../domain/events/sigma/rule';

// A tenant's Sigma rule as uploaded: YAML text, bounded before it is parsed, then checked and compiled by the domain
// (domain/events/sigma/rule.ts).

/** The largest rule read, in bytes of its YAML. SigmaHQ's CloudTrail rules are 1 to 2 KiB. */
export const SIGMA_YAML_MAX_BYTES = 64 * 1024;

/** Reads, checks and compiles a rule's YAML; every problem found is named. */
export function compileSigmaYaml(text: string): CompiledSigma {
  if (Buffer.byteLength(text, 'utf8') > SIGMA_YAML_MAX_BYTES) {
    return { ok: false, problems: [`the rule is larger than ${SIGMA_YAML_MAX_BYTES / 1024} KiB`] };
  }
  let doc: unknown;
  try {
    // No aliases: `*a` repeated over nested anchors is the YAML bomb, and Sigma rules have no use for them.
    doc = parse(text, { maxAliasCount: 0, uniqueKeys: true, prettyErrors: false });
  } catch (error) {
    // The parser's errors (YAMLError, and the ReferenceError of a refused alias) are about the text: a 400, never a 500.
    if (!(error instanceof Error)) throw error;
    if (!(error instanceof YAMLError) && /alias/i.test(error.message)) {
      return { ok: false, problems: ['YAML aliases are not supported'] };
    }
    return { ok: false, problems: [`the rule is not valid YAML: ${error.message.split('\n')[0]}`] };
  }
  return compileSigmaRule(doc);
}
