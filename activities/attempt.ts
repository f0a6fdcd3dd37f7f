import { Context } from '@temporalio/activity';
import type { Attempt } from '../core/deps';

/** The running activity's attempt, as the use cases in core/ see it. Call it inside the activity. */
export function currentAttempt(): Attempt {
  const context = Context.current();
  return {
    number: context.info.attempt,
    heartbeat: (details) => context.heartbeat(details),
    cancelled: context.cancellationSignal,
  };
}
