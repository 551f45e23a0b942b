import type { GbnfJsonSchema, Llama, LlamaGrammar } from 'node-llama-cpp';
import { invalidRequest } from '../../../errors/errors.js';
import type { JsonSchema } from '../types.js';

/** Grammars of recent schemas kept compiled: a client repeats its schema from call to call. */
const KEPT = 32;

/**
 * JSON mode's grammars: any JSON object, or the JSON Schema a request gives (node-llama-cpp turns
 * it into a grammar, as it does function parameters), the most recent ones kept by their text.
 */
export class JsonGrammars {
  private anyJson: Promise<LlamaGrammar> | undefined = undefined;
  private readonly bySchema = new Map<string, Promise<LlamaGrammar>>();

  constructor(private readonly llama: Llama) {}

  get(schema: JsonSchema | undefined): Promise<LlamaGrammar> {
    if (schema === undefined) {
      this.anyJson ??= this.llama.getGrammarFor('json');
      return this.anyJson;
    }
    const key = JSON.stringify(schema);
    let grammar = this.bySchema.get(key);
    if (grammar === undefined) {
      grammar = this.compile(schema);
      // A schema that fails is not kept: the next request tries again and gets its own error.
      grammar.catch(() => this.bySchema.delete(key));
      if (this.bySchema.size >= KEPT) this.bySchema.delete(this.bySchema.keys().next().value!);
    } else this.bySchema.delete(key);
    this.bySchema.set(key, grammar);
    return grammar;
  }

  private async compile(schema: JsonSchema): Promise<LlamaGrammar> {
    try {
      // The client's schema, checked by node-llama-cpp as it builds the grammar (its type is a literal's).
      return await this.llama.createGrammarForJsonSchema(schema as GbnfJsonSchema as never);
    } catch (err) {
      throw invalidRequest(`The reply's JSON schema cannot be followed: ${(err as Error).message}`, { cause: err });
    }
  }
}
