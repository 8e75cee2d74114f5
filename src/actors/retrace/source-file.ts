/**
 * R8's source-file synthesis (RetraceUtils.inferSourceFile): an obfuscated frame names a dummy
 * file (`SourceFile`, `r8-map-id-…`, `Unknown Source`), so the retraced frame names the outer class's
 * simple name with the original extension: `Foo.kt` when it was `.kt` or the class is `FooKt`, else
 * `Foo.java`. Frames of classes the mapping does not know keep their file.
 */
export function inferSourceFile(retracedClassName: string, sourceFile: string, classKnown: boolean): string {
  if (!classKnown || sourceFile === 'Native Method') {
    return sourceFile;
  }
  let extension = fileExtension(sourceFile);
  let name = outerClassSimpleName(retracedClassName);
  if (name.endsWith('Kt') && (extension === '' || extension === 'kt')) {
    name = name.slice(0, -2);
    extension = 'kt';
  } else if (extension !== 'kt') {
    extension = 'java';
  }
  return `${name}.${extension}`;
}

/** Guava's Files.getFileExtension: after the last dot of the last path segment. */
function fileExtension(fullName: string): string {
  const slash = fullName.lastIndexOf('/');
  const fileName = slash >= 0 ? fullName.slice(slash + 1) : fullName;
  const dot = fileName.lastIndexOf('.');
  return dot < 0 ? '' : fileName.slice(dot + 1);
}

function outerClassSimpleName(className: string): string {
  const lastDot = className.lastIndexOf('.');
  let end = className.indexOf('$', lastDot < 0 ? 0 : lastDot);
  if (lastDot > end || end < 0) {
    end = className.length;
  }
  return className.slice(lastDot + 1, end);
}
