/**
 * Links that open a file at a line in the developer's editor (Symfony's `framework.ide`): a known editor's
 * name, or a URL format of one's own where `%f` is the file's path and `%l` the line.
 */
export const EDITOR_FORMATS: Readonly<Record<string, string>> = {
  vscode: 'vscode://file/%f:%l',
  vscodium: 'vscodium://file/%f:%l',
  cursor: 'cursor://file/%f:%l',
  phpstorm: 'phpstorm://open?file=%f&line=%l',
  idea: 'idea://open?file=%f&line=%l',
  webstorm: 'webstorm://open?file=%f&line=%l',
  sublime: 'subl://open?url=file://%f&line=%l',
  textmate: 'txmt://open?url=file://%f&line=%l',
  macvim: 'mvim://open?url=file://%f&line=%l',
  emacs: 'emacs://open?url=file://%f&line=%l',
  atom: 'atom://core/open/file?filename=%f&line=%l',
};

// A link the page would follow as code, or as a document of its own: never an editor's.
const REFUSED_SCHEMES = new Set(['javascript', 'data', 'vbscript', 'blob', 'file', 'about']);

/**
 * The link format an editor setting names: a known editor's, or the setting itself when it is a URL format
 * with `%f`; undefined when it is neither (a name keel does not know, a scheme a page would run).
 * @example editorFormat('vscode') // 'vscode://file/%f:%l'
 */
export function editorFormat(setting: string): string | undefined {
  // Own names only: `constructor` or `__proto__` is no editor, and their inherited values no format.
  const name = setting.toLowerCase();
  if (Object.hasOwn(EDITOR_FORMATS, name)) return EDITOR_FORMATS[name];
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(setting)?.[1]?.toLowerCase();
  return scheme !== undefined && !REFUSED_SCHEMES.has(scheme) && setting.includes('%f') ? setting : undefined;
}

/**
 * The editor's link to a file at a line; the path percent-encoded where a URL needs it (spaces, `#`, `?`,
 * and `&`, which would end the path early in the query of `?file=%f&line=%l`).
 */
export function editorUrl(format: string, file: string, line: number): string {
  return format.replaceAll('%f', encodeURI(file).replaceAll('#', '%23').replaceAll('?', '%3F').replaceAll('&', '%26')).replaceAll('%l', String(line));
}
