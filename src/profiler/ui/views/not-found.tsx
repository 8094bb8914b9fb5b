/** @jsxRuntime automatic @jsxImportSource preact */
import { Layout } from './layout.js';

/** Symfony's info.html.twig for an unknown token: a 200 page, the token shown escaped. */
export function TokenNotFound({ token, base }: { token: string; base: string }) {
  return (
    <Layout base={base}>
      <div id="summary" class="status-error">
        <h2>Error</h2>
      </div>
      <div id="panel">
        <h2>Token not found</h2>
        <p>Token "{token}" not found.</p>
      </div>
    </Layout>
  );
}
