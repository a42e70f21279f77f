import { ENGLISH_COMMAND_PHRASES } from '../../intent/command-phrases';

/**
 * A JSGF grammar of the intent engine's English commands. pocketsphinx's general language model does not
 * understand espeak-ng's voice; constrained to these phrases it recognises them (the voice path's own example: "set the volume to
 * forty" came back exactly).
 */
export function commandGrammar(phrases: readonly string[] = ENGLISH_COMMAND_PHRASES): string {
  const alternatives = phrases.join('\n  | ');
  return [
    '#JSGF V1.0;',
    'grammar commands;',
    '<digit> = one | two | three | four | five | six | seven | eight | nine;',
    '<teen> = ten | eleven | twelve | thirteen | fourteen | fifteen | sixteen | seventeen | eighteen | nineteen;',
    '<tens> = twenty | thirty | forty | fifty | sixty | seventy | eighty | ninety;',
    '<number> = zero | <digit> | <teen> | <tens> [<digit>] | one hundred;',
    `public <command> = ${alternatives};`,
    '',
  ].join('\n');
}
