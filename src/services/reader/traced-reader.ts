import { inSpan, type Tracer } from '../../telemetry/tracer.js';
import type { ReaderService } from './service.js';

/** The reader with a span per page read (URL, format, what came back), when tracing is on. */
export function traceReader(reader: ReaderService, tracer: Tracer): ReaderService {
  return {
    read: (request, options) =>
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
          const output = await reader.read(request, options);
          // The size of what came back, from its bytes: parsing the result for a span would cost
          // the event loop what the reply spares it (service.ts, ReaderOutput).
          span.setAttributes({ 'gen_platform.reader.result_bytes': output.json.byteLength });
          return output;
        },
      ),
    extraction: () => reader.extraction(),
    warmUp: () => reader.warmUp(),
    close: () => reader.close(),
  };
}
