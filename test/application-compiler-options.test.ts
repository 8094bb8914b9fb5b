import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import ts from 'typescript';

// keel is published as its sources, so an application's tsc checks them with the application's options: each
// check a strict project may turn on must pass on what the application imports, or the application cannot
// build. exactOptionalPropertyTypes is the documented exception (docs/getting-started.md).
const STRICTEST: ts.CompilerOptions = {
  strict: true,
  noUncheckedIndexedAccess: true,
  noPropertyAccessFromIndexSignature: true,
  noImplicitOverride: true,
  noImplicitReturns: true,
  noFallthroughCasesInSwitch: true,
  noUnusedLocals: true,
  noUnusedParameters: true,
  allowUnreachableCode: false,
  allowUnusedLabels: false,
  // Node's own type stripping runs only such code, and projects that use it turn the check on.
  erasableSyntaxOnly: true,
};

describe("keel's sources, compiled by an application", () => {
  it('type-check under every strict option an application may enable, exactOptionalPropertyTypes aside', { timeout: 120_000 }, () => {
    const root = join(import.meta.dirname, '..', 'src');
    const program = ts.createProgram([join(root, 'index.ts'), join(root, 'rate-limiter', 'storage', 'redis-storage.ts')], {
      ...STRICTEST,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      types: ['node'],
      jsx: ts.JsxEmit.ReactJSX,
      jsxImportSource: 'preact',
      skipLibCheck: true,
      noEmit: true,
    });
    const errors = ts.getPreEmitDiagnostics(program).map((diagnostic) => {
      const where = diagnostic.file ? `${diagnostic.file.fileName.slice(root.length + 1)}:${diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start ?? 0).line + 1} ` : '';
      return where + ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ');
    });
    assert.deepEqual(errors, []);
  });
});
