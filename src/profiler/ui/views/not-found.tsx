/** @jsxRuntime automatic @jsxImportSource preact */
import { LATEST_TOKEN } from '../../token.js';
import { Layout } from './layout.js';

/**
 * Symfony's info.html.twig for an unknown token: a 200 page, the token shown escaped. For `latest` there is
 * no token to name: the store holds no record (of the type asked for).
 */
export function TokenNotFound({ token, base }: { token: string; base: string }) {
  const latest = token === LATEST_TOKEN;
  return (
    <Layout base={base}>
      <div id="summary" class="status-error">
        <h2>Error</h2>
      </div>
      <div id="panel">
        <h2>{latest ? 'There are no profiles' : 'Token not found'}</h2>
        <p>{latest ? 'No profiles found.' : `Token "${token}" not found.`}</p>
      </div>
    </Layout>
  );
}
