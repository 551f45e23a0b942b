import { Value } from '@sinclair/typebox/value';
import { ReaderBody } from '../../api/reader.js';
import { type Config, ConfigSchema } from '../../config/schema.js';

/**
 * The reader's settings where its options give none (tests, one-off tools): the defaults of the
 * configuration's `reader` section, so that a default is written once, in the schema that documents it.
 */
export const READER_DEFAULTS: Config['reader'] = Value.Default(ConfigSchema.properties.reader, {}) as Config['reader'];

/** A read's `timeout` when its request names none: the operation's own default (api/reader.ts). */
export const READ_TIMEOUT_SECONDS: number = ReaderBody.properties.timeout.default;
