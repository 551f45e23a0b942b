import { type Static, type TSchema, type TUnion, Type } from '@sinclair/typebox';

/**
 * A `oneOf` with an OpenAPI/ajv discriminator: ajv validates only the branch that the tag selects,
 * so an error names the field of that branch instead of listing every branch's complaint.
 */
export function Discriminated<T extends TSchema[]>(propertyName: string, variants: [...T], description?: string) {
  return Type.Unsafe<Static<TUnion<T>>>({
    type: 'object',
    oneOf: variants,
    discriminator: { propertyName },
    ...(description ? { description } : {}),
  });
}

/** String enum documented in OpenAPI as `enum`, so that ajv reports it with its allowed values. */
export function StringEnum<T extends readonly string[]>(
  values: [...T],
  options: { default?: T[number]; description?: string } = {},
) {
  return Type.Unsafe<T[number]>({ type: 'string', enum: values, ...options });
}
