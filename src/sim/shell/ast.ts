/**
 * The syntax tree of a device shell command line: the subset of mksh's grammar that adb clients
 * send (lists, and-or chains, pipelines, simple commands with redirections, groups and the common
 * compound commands).
 *
 * Evidence: POSIX Shell Command Language 2.9 (lists, pipelines, compound commands), the grammar
 * Android's sh (external/mksh) accepts.
 */

/** One piece of a word before expansion. `q` marks text that came from quotes (no splitting, no globbing). */
export type WordPart =
  | { k: 'lit'; s: string; q: boolean }
  | { k: 'param'; name: string; q: boolean; op?: ParamOp; arg?: Word }
  | { k: 'cmd'; list: List; q: boolean }
  | { k: 'arith'; expr: Word; q: boolean };

export type ParamOp = ':-' | '-' | ':=' | '=' | ':+' | '+' | '#len' | '#' | '##' | '%' | '%%';

export type Word = WordPart[];

export type RedirOp = '>' | '>>' | '<' | '>&' | '<&' | '&>' | '<>';

export interface Redir {
  fd: number;
  op: RedirOp;
  target: Word;
}

export interface SimpleCommand {
  k: 'simple';
  assigns: { name: string; value: Word }[];
  words: Word[];
  redirs: Redir[];
}

export interface GroupCommand {
  k: 'group';
  subshell: boolean;
  body: List;
  redirs: Redir[];
}

export interface IfCommand {
  k: 'if';
  clauses: { cond: List; body: List }[];
  otherwise: List | null;
  redirs: Redir[];
}

export interface LoopCommand {
  k: 'loop';
  until: boolean;
  cond: List;
  body: List;
  redirs: Redir[];
}

export interface ForCommand {
  k: 'for';
  name: string;
  items: Word[] | null;
  body: List;
  redirs: Redir[];
}

export type Command = SimpleCommand | GroupCommand | IfCommand | LoopCommand | ForCommand;

export interface Pipeline {
  bang: boolean;
  cmds: Command[];
}

export interface AndOr {
  first: Pipeline;
  rest: { op: '&&' | '||'; pipeline: Pipeline }[];
}

export interface ListItem {
  andOr: AndOr;
  background: boolean;
}

export type List = ListItem[];
