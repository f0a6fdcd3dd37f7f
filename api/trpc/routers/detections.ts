import { createDetectionInput, patchDetectionInput } from '../../../core/schemas/detections';
import {
  createDetection,
  deleteDetection,
  listDetections,
  patchDetection,
} from '../../../core/detections/tenant-detections';
import { procedureFor, router } from '../init';
import { detectionRef } from '../inputs';

export const detectionsRouter = router({
  list: procedureFor('listDetections').query(({ ctx }) => listDetections(ctx.deps, ctx.caller)),
  create: procedureFor('createDetection')
    .input(createDetectionInput)
    .mutation(({ ctx, input }) => createDetection(ctx.deps, ctx.caller, input)),
  update: procedureFor('patchDetection')
    .input(detectionRef.extend({ patch: patchDetectionInput }))
    .mutation(({ ctx, input }) => patchDetection(ctx.deps, ctx.caller, input.detection_id, input.patch)),
  delete: procedureFor('deleteDetection')
    .input(detectionRef)
    .mutation(({ ctx, input }) => deleteDetection(ctx.deps, ctx.caller, input.detection_id)),
});
