/** `--name N` from the bench's command line, or the fallback. */
export function numberFlag(name: string, fallback: number, argv = process.argv.slice(2)): number {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? Number(argv[i + 1]) : fallback;
}
