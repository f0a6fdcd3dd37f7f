import { type HttpPeer, type PeerReply, startHttpPeer } from './http-peer';
import { listenSmtp } from './smtp';

// Alert peers with a gate. While it is closed, every notification is held at the worst moment for its sender:
// an e-mail after its data arrived but before the server accepted it, a PagerDuty event after PagerDuty
// processed it but before its answer. A test kills the sender there. Opening the gate releases them: an e-mail
// whose sender hung up meanwhile was never accepted (SMTP) and is dropped; an answer to a dead sender is lost.

export interface AcceptedEmail {
  messageId: string;
  to: string[];
  raw: string;
}

export interface GatedPeers {
  /** E-mails the SMTP server accepted, in order. */
  emails: AcceptedEmail[];
  pagerduty: HttpPeer;
  /** PagerDuty's incidents by dedup_key, as PagerDuty keeps them: a trigger for an open incident opens nothing. */
  incidents: Map<string, { status: 'triggered' | 'resolved'; opened: number }>;
  /** Configuration that points the service at these peers. */
  config: Record<string, string>;
  closeGate(): void;
  openGate(): void;
  /** True when an e-mail and a PagerDuty event whose text contains `text` are both held at the gate. */
  holds(text: string): boolean;
  close(): Promise<void>;
}

interface Held {
  text: string;
  release: () => void;
}

export async function startGatedPeers(): Promise<GatedPeers> {
  const emails: AcceptedEmail[] = [];
  const incidents: GatedPeers['incidents'] = new Map();
  const heldEmails: Held[] = [];
  const heldEvents: Held[] = [];
  let gateClosed = false;

  const smtp = await listenSmtp(({ hungUp, to, raw }, reply) => {
    const accept = () => {
      if (hungUp()) return;
      const messageId = /^Message-ID:\s*(\S+)/im.exec(raw)?.[1] ?? '';
      emails.push({ messageId, to, raw });
      reply();
    };
    if (gateClosed) heldEmails.push({ text: raw, release: accept });
    else accept();
  });

  const pagerduty = await startHttpPeer((req) => {
    const event = req.json as { event_action: string; dedup_key: string };
    const incident = incidents.get(event.dedup_key);
    if (event.event_action === 'trigger' && incident?.status !== 'triggered') {
      incidents.set(event.dedup_key, { status: 'triggered', opened: (incident?.opened ?? 0) + 1 });
    }
    if (event.event_action === 'resolve' && incident) incident.status = 'resolved';
    const reply: PeerReply = {
      status: 202,
      body: { status: 'success', message: 'Event processed', dedup_key: event.dedup_key },
    };
    if (!gateClosed) return reply;
    return new Promise<PeerReply>((resolve) => heldEvents.push({ text: req.body, release: () => resolve(reply) }));
  });

  const releaseAll = (held: Held[]) => held.splice(0).forEach((h) => h.release());
  return {
    emails,
    pagerduty,
    incidents,
    config: { SMTP_URL: smtp.url, PAGERDUTY_EVENTS_URL: `${pagerduty.url}/v2/enqueue` },
    closeGate: () => {
      gateClosed = true;
    },
    openGate: () => {
      gateClosed = false;
      releaseAll(heldEmails);
      releaseAll(heldEvents);
    },
    holds: (text) => heldEmails.some((h) => h.text.includes(text)) && heldEvents.some((h) => h.text.includes(text)),
    close: async () => {
      releaseAll(heldEmails);
      releaseAll(heldEvents);
      await Promise.all([smtp.close(), pagerduty.close()]);
    },
  };
}
