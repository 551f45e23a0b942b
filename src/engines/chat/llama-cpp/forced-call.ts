import { type ChatWrapper, type ChatWrapperGenerateContextStateOptions, LlamaText } from 'node-llama-cpp';

/**
 * `tool_choice` required, or a named function: the chat wrapper's prompt is made to end inside the
 * opening of a function call (the template's own call prefix), with function calling engaged from
 * the first token, so that the model writes a function name (held by node-llama-cpp's grammar to
 * the functions offered) and its arguments, and cannot answer in text instead.
 */
export function forcedCallWrapper(wrapper: ChatWrapper): ChatWrapper {
  const { call, parallelism } = wrapper.settings.functions;
  const opening = LlamaText([parallelism?.call.sectionPrefix ?? '', call.prefix]);
  return new Proxy(wrapper, {
    get(target, property, receiver) {
      if (property !== 'generateContextState') return Reflect.get(target, property, receiver);
      return (options: ChatWrapperGenerateContextStateOptions) => {
        const state = target.generateContextState(options);
        return {
          ...state,
          contextText: LlamaText([state.contextText, opening]),
          functionCall: { initiallyEngaged: true, disengageInitiallyEngaged: [] },
        };
      };
    },
  });
}
