import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { defineTool } from '../../src/mcp/define-tool.js';
import type { ToolDefinition } from '../../src/mcp/define-tool.js';
import { ALL_PROMPTS, definePrompt } from '../../src/mcp/prompts.js';
import { ALL_TOOLS } from '../../src/mcp/registry.js';
import { SKILL_FILE } from '../../src/mcp/skill.js';
import { toolMentions, unknownToolMentions } from '../../src/mcp/tool-mentions.js';
import { ROOT } from '../helpers/paths.js';

const skill = readFileSync(path.join(ROOT, 'skills', 'droidbus', 'SKILL.md'), 'utf8');

/** Renders a prompt with every argument given, so every branch of its text is checked. */
function renderAll(prompt: (typeof ALL_PROMPTS)[number]): string {
  return prompt.render(Object.fromEntries(prompt.arguments.map((a) => [a.name, a.example ?? 'example'])));
}

describe('the agent skill', () => {
  it('names only real tools: every snake_case name in backticks is a tool of the registry', () => {
    expect(unknownToolMentions(skill, ALL_TOOLS)).toEqual([]);
    expect(toolMentions(skill).filter((m) => m.kind === 'tool').length).toBeGreaterThan(0);
  });

  it('has the frontmatter Claude Code reads: name droidbus and a description', () => {
    const front = /^---\n([\s\S]*?)\n---\n/.exec(skill);
    expect(front).not.toBeNull();
    expect(front![1]).toMatch(/^name: droidbus$/m);
    expect(front![1]).toMatch(/^description: .{40,}$/m);
  });

  it('says when to use droidbus and when another tool fits better', () => {
    for (const topic of [
      'Builds',
      'Logcat',
      'Crashes and deobfuscation',
      'Exit reasons',
      'Launch times',
      'UI automation',
      'Package scope',
    ]) {
      expect(skill).toContain(topic);
    }
    expect(skill).toContain('When another tool fits better');
  });

  it('is the file the droidbus://skill resource serves', () => {
    expect(path.resolve(SKILL_FILE)).toBe(path.join(ROOT, 'skills', 'droidbus', 'SKILL.md'));
  });
});

describe('the prompts', () => {
  it('name only tools and parameters that exist', () => {
    for (const prompt of ALL_PROMPTS) {
      expect(unknownToolMentions(renderAll(prompt), ALL_TOOLS), prompt.name).toEqual([]);
    }
  });

  it('have unique kebab-case names and snake_case arguments', () => {
    const names = ALL_PROMPTS.map((p) => p.name);
    expect(new Set(names).size).toBe(names.length);
    for (const prompt of ALL_PROMPTS) {
      expect(prompt.name).toMatch(/^[a-z]+(-[a-z]+)*$/);
      for (const arg of prompt.arguments) {
        expect(arg.name).toMatch(/^[a-z][a-z0-9]*(_[a-z0-9]+)*$/);
      }
    }
  });
});

describe('the mention checker the guards rely on', () => {
  const tools: ToolDefinition[] = [
    defineTool({
      name: 'get_crash_logs',
      toolset: 'core',
      kind: 'read',
      title: 't',
      description: 'd',
      input: z.object({ package: z.string().describe('p'), device_serial: z.string().describe('s') }),
      handle: () => Promise.resolve({ text: '' }),
    }) as unknown as ToolDefinition,
  ];

  it('catches a prompt that names a tool that does not exist', () => {
    const prompt = definePrompt({
      name: 'diagnose-crash',
      title: 't',
      description: 'd',
      arguments: [{ name: 'package', description: 'p', required: true }],
      render: (a) => `Call \`get_crash_logs\` with \`package: ${a['package']}\`, then \`get_exit_reasons\`.`,
    });
    expect(unknownToolMentions(renderAll(prompt), tools)).toEqual(['`get_exit_reasons` is not a tool']);
  });

  it('catches a parameter the tool named before it does not take, and ignores fenced code', () => {
    const text =
      'Call `get_crash_logs` with `device_serial: emulator-5554` and `retrace: true`.\n```\nrun `not_a_tool` here\n```\n';
    expect(unknownToolMentions(text, tools)).toEqual(['`retrace` is not a parameter of get_crash_logs']);
  });
});
