/**
 * inputText (YamlInputText, InputTextCommand; v1.39.10): the text typed into the focused field —
 * printable ASCII as `input text`, anything else through droidbus's Unicode input. The exported
 * form of text typed into a password field is a `${NAME}` variable: its value is never kept.
 */
import { only, str } from './read.js';
import { command, verbatim } from './command.js';

export const inputText = command({
  names: ['inputText'],
  read: (v, map, at) => {
    only(map, ['text'], at);
    return {
      op: 'input' as const,
      text: map ? str(map['text'] ?? '', at.where, 'text') : str(v, at.where, 'inputText'),
    };
  },
  run: async (op, { device }) => {
    await device.input({ action: /^[\x20-\x7e]*$/.test(op.text) ? 'type' : 'type_unicode', text: op.text });
  },
  writes: ['type'],
  write: (step, w) => ({
    inputText: step.secret || step.text === null ? `\${${w.secret(step.field)}}` : verbatim(step.text),
  }),
});
