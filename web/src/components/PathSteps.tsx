import { type AttackPath, nodeKindLabel } from '../attack-paths';

// The steps of an attack path in order, each with what shows it: the text equivalent of the graph, and where a
// reader finds the policy statement, rule or route to change.

/** How a policy statement reference starts: a managed policy's ARN, or an inline, boundary, SCP, resource or trust one. */
const POLICY_REF = /^(arn:|inline:|boundary:|scp:|resource:|trust:)[^#]+#[^#]+$/;

/** A policy statement reference (`<policy>#<sid or index>`) split for reading; a rule, route or key id as it is. */
function Evidence({ item }: { item: string }) {
  if (!POLICY_REF.test(item)) return <code>{item}</code>;
  const hash = item.lastIndexOf('#');
  return (
    <>
      <code>{item.slice(0, hash)}</code> statement <code>{item.slice(hash + 1)}</code>
    </>
  );
}

export function PathSteps({ path, id }: { path: AttackPath; id: string }) {
  const nodes = new Map(path.nodes.map((n) => [n.id, n]));
  const name = (nodeId: string) => {
    const node = nodes.get(nodeId);
    return node ? `${node.label} (${nodeKindLabel(node.kind)})` : nodeId;
  };
  return (
    <ol className="path-steps" id={id} aria-label="Steps of the path">
      {path.edges.map((edge, i) => (
        <li key={`${edge.from}>${edge.to}:${i}`} data-step={i} data-certainty={edge.certainty}>
          <p>
            <strong>{name(edge.from)}</strong> → <strong>{name(edge.to)}</strong>: {edge.label}
            {edge.certainty === 'possible' && (
              <>
                {' '}
                <PossibleBadge />
              </>
            )}
          </p>
          {edge.evidence.length > 0 ? (
            <ul className="evidence" aria-label="Evidence">
              {edge.evidence.map((item) => (
                <li key={item}>
                  <Evidence item={item} />
                </li>
              ))}
            </ul>
          ) : (
            <p className="muted">No evidence recorded for this step.</p>
          )}
        </li>
      ))}
    </ol>
  );
}

export function PossibleBadge() {
  return (
    <span
      className="possible-badge"
      title="A condition Sentinel cannot decide, or a document it could not read, decides whether this is open"
    >
      possible
    </span>
  );
}
