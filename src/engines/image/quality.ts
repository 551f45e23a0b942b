import { type Static, Type } from '@sinclair/typebox';
import type { ImageQuality } from './types.js';

/** What `quality` means on an engine: sampling steps, sampler, guidance. */
export const QualitySettings = Type.Object(
  {
    steps: Type.Optional(Type.Integer({ minimum: 1, maximum: 500 })),
    sampler: Type.Optional(Type.String({ minLength: 1 })),
    scheduler: Type.Optional(Type.String({ minLength: 1 })),
    cfg_scale: Type.Optional(Type.Number({ minimum: 0, maximum: 50 })),
  },
  { additionalProperties: false },
);
export type QualitySettings = Static<typeof QualitySettings>;

export const QualityOverrides = Type.Optional(
  Type.Object(
    { hd: Type.Optional(QualitySettings), standard: Type.Optional(QualitySettings) },
    {
      additionalProperties: false,
      description: 'Per-quality settings (steps, sampler, scheduler, cfg_scale) over the engine defaults.',
    },
  ),
);

export type QualityTable = Record<ImageQuality, QualitySettings>;

/** The engine's defaults for each quality, with the deployment's overrides on top. */
export function qualitySettings(
  defaults: QualityTable,
  overrides: Partial<Record<ImageQuality, QualitySettings>> | undefined,
  quality: ImageQuality,
): QualitySettings {
  return { ...defaults[quality], ...overrides?.[quality] };
}
