import type { z } from 'zod';
import type { eventForwarding } from '../../core/schemas/events';
import { eventDetection } from '../../domain/events/catalog';
import { type Inputs, type Outputs, trpc } from './api';

// An account's event stream: the events its EventBridge forwarder delivered and the forwarder's key.

export type EventForwarding = z.output<typeof eventForwarding>;
export type EventPage = Outputs['events']['list'];
export type AccountEvent = EventPage['events'][number];
export type KeyRotation = Outputs['events']['rotateKey'];
export type EventsQuery = NonNullable<Inputs['events']['list']['query']>;

/** One page of the account's events, newest first. */
export function listEvents(accountId: string, query: EventsQuery = {}): Promise<EventPage> {
  return trpc.events.list.query({ account_id: accountId, query });
}

/** A new event key for the account's forwarder (shown in this answer only); the old one works 24 hours more. */
export function rotateEventKey(accountId: string): Promise<KeyRotation> {
  return trpc.events.rotateKey.mutate({ account_id: accountId });
}

/** The title and severity of a detection, from its id (`event.root_console_sign_in`); the id alone for one unknown here. */
export function detectionLabel(id: string): { title: string; severity: string | null } {
  const detection = eventDetection(id);
  return detection ? { title: detection.title, severity: detection.severity } : { title: id, severity: null };
}
