import type { ToolDefinition } from './define-tool.js';

/**
 * What a piece of Markdown written for the model (the skill, a prompt) names: tools as snake_case
 * names in backticks (`get_project_info`) and parameters as `name: value` right after the tool
 * they belong to. Fenced code blocks are left out: they hold shell commands, not tool names.
 */
export interface ToolMention {
  kind: 'tool' | 'parameter';
  name: string;
  /** For a parameter: the tool named last before it (null when none was). */
  tool: string | null;
}

const SNAKE = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)+$/;
const PARAMETER = /^([a-z][a-z0-9]*(?:_[a-z0-9]+)*)\s*:\s*\S/;

/** The tool and parameter mentions of `markdown`, in order. */
export function toolMentions(markdown: string): ToolMention[] {
  const withoutFences = markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
  const mentions: ToolMention[] = [];
  let lastTool: string | null = null;
  for (const match of withoutFences.matchAll(/`([^`\n]+)`/g)) {
    const span = match[1]!.trim();
    if (SNAKE.test(span)) {
      mentions.push({ kind: 'tool', name: span, tool: null });
      lastTool = span;
      continue;
    }
    const param = PARAMETER.exec(span);
    if (param) {
      mentions.push({ kind: 'parameter', name: param[1]!, tool: lastTool });
    }
  }
  return mentions;
}

/** What `markdown` names that does not exist among `tools`; empty when all is well. */
export function unknownToolMentions(markdown: string, tools: readonly ToolDefinition[]): string[] {
  const byName = new Map(tools.map((t) => [t.name, t]));
  const problems: string[] = [];
  for (const mention of toolMentions(markdown)) {
    if (mention.kind === 'tool') {
      if (!byName.has(mention.name)) {
        problems.push(`\`${mention.name}\` is not a tool`);
      }
      continue;
    }
    const tool = mention.tool ? byName.get(mention.tool) : undefined;
    if (!tool) {
      problems.push(`\`${mention.name}: …\` follows no known tool`);
    } else if (!(mention.name in tool.input.shape)) {
      problems.push(`\`${mention.name}\` is not a parameter of ${tool.name}`);
    }
  }
  return problems;
}
