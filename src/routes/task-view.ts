import type { TaskResultReply } from '../api/images-reply.js';
import type { StoredFile } from '../files/types.js';
import type { ImageOutcome } from '../services/images/image-service.js';
import type { TaskRecord } from '../stores/tasks.js';

type FileUrl = (file: Pick<StoredFile, 'id' | 'extension'>) => string;

/** `GET /async-result/{id}` (docs/wire.md, "Async tasks"): the handle while running, the image or the error once done. */
export function taskView(task: TaskRecord, url: FileUrl): TaskResultReply {
  const head = { id: task.id, model: task.model, request_id: task.requestId, task_status: task.status };
  if (task.status === 'SUCCESS') {
    const outcome = JSON.parse(task.result ?? '{}') as ImageOutcome;
    return { ...head, image_result: [{ url: url(outcome.file) }], content_filter: outcome.contentFilter };
  }
  if (task.status === 'FAIL') {
    const error = task.error ?? { code: 500, message: 'Internal error' };
    // The code is a string, as in the nested `error` of every failed call (docs/wire.md, "Errors").
    return { ...head, error: { code: String(error.code), message: error.message } };
  }
  return head;
}
