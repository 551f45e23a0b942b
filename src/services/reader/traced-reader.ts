import { inSpan, type Tracer } from '../../telemetry/tracer.js';
import type { ReaderService } from './service.js';

/** The reader with a span per page read (URL, format, what came back), when tracing is on. */
export function traceReader(reader: ReaderService, tracer: Tracer): ReaderService {
  return {
    read: (request, signal) =>
      inSpan(
        tracer,
        'reader.read',
        {
          kind: 'client',
          attributes: {
            'url.full': request.url,
            'gen_platform.reader.format': request.return_format,
            'gen_platform.reader.no_cache': request.no_cache === true,
          },
        },
        async (span) => {
          const result = await reader.read(request, signal);
          span.setAttributes({ 'gen_platform.reader.content_chars': result.content.length });
          return result;
        },
      ),
    extraction: () => reader.extraction(),
    warmUp: () => reader.warmUp(),
    close: () => reader.close(),
  };
}
