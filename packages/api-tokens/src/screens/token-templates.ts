/** The API Tokens list: one row per token with its actions. */
export const TOKEN_LIST_TEMPLATE = `<h1>API Tokens</h1>
<p><a class="button primary" href="{{newPath}}">New API token</a></p>
{{#if tokens.length}}
<div class="table-scroll" role="region" aria-label="API tokens" tabindex="0">
<table>
  <caption class="visually-hidden">API tokens, newest first</caption>
  <thead><tr><th scope="col">Name</th><th scope="col">Status</th><th scope="col">Expires</th><th scope="col">Last used</th><th scope="col">Created by</th><th scope="col">Grants</th><th scope="col">Actions</th></tr></thead>
  <tbody>
  {{#each tokens}}
    <tr data-token-id="{{id}}">
      <td>{{name}}</td>
      <td><span class="status status-{{status}}">{{status}}</span></td>
      <td>{{expires}}</td>
      <td>{{lastUsed}}</td>
      <td>{{createdBy}}</td>
      <td>{{grantsSummary}}</td>
      <td class="actions">
        {{#if canEditGrants}}<a href="{{grantsPath}}">Edit grants<span class="visually-hidden"> of {{name}}</span></a>{{/if}}
        {{#if canDisable}}<form method="post" action="{{disablePath}}"><input type="hidden" name="csrf_token" value="{{../csrfToken}}"><button>Disable<span class="visually-hidden"> {{name}}</span></button></form>{{/if}}
        {{#if canEnable}}<form method="post" action="{{enablePath}}"><input type="hidden" name="csrf_token" value="{{../csrfToken}}"><button>Enable<span class="visually-hidden"> {{name}}</span></button></form>{{/if}}
        {{#if canRevoke}}<a href="{{revokePath}}">Revoke<span class="visually-hidden"> {{name}}</span></a>{{/if}}
      </td>
    </tr>
  {{/each}}
  </tbody>
</table>
</div>
{{else}}
<p>No API tokens yet.</p>
{{/if}}
`;

/** The new-token form; errors re-render it with messages beside the fields. */
export const TOKEN_NEW_TEMPLATE = `<h1>New API token</h1>
<form method="post" action="{{createPath}}" novalidate>
  <input type="hidden" name="csrf_token" value="{{csrfToken}}">
  {{#if errors.base}}<p class="error" role="alert">{{errors.base}}</p>{{/if}}
  <label for="token-name">Name</label>
  <input type="text" id="token-name" name="name" value="{{values.name}}" required maxlength="120" autocomplete="off"{{#if errors.name}} aria-invalid="true" aria-describedby="token-name-error"{{/if}}>
  {{#if errors.name}}<p class="error" id="token-name-error">Name {{errors.name}}</p>{{/if}}
  <label for="token-expires">Expires (UTC, optional)</label>
  <input type="datetime-local" id="token-expires" name="expires_at" value="{{values.expiresAt}}" aria-describedby="token-expires-hint{{#if errors.expires_at}} token-expires-error{{/if}}"{{#if errors.expires_at}} aria-invalid="true"{{/if}}>
  <p class="hint" id="token-expires-hint">Leave empty for a token that never expires.</p>
  {{#if errors.expires_at}}<p class="error" id="token-expires-error">Expiry {{errors.expires_at}}</p>{{/if}}
  {{> grantMatrix matrix}}
  <div class="form-actions"><button class="primary">Create token</button> <a class="button" href="{{listPath}}">Cancel</a></div>
</form>
`;

/** The one-time reveal screen: the secret once, or the explanation and the way out. */
export const TOKEN_REVEAL_TEMPLATE = `<h1>API token “{{token.name}}”</h1>
{{#if secret}}
<p><strong>Copy this token now.</strong> It is shown only once: Panel keeps only a digest of it and cannot show it again.</p>
<code class="secret" id="token-secret" data-token-secret>{{secret}}</code>
<p><button type="button" data-copy-target="#token-secret" aria-describedby="copy-status" hidden>Copy token</button> <span id="copy-status" role="status"></span></p>
<p>Send it as <code>Authorization: Bearer &lt;token&gt;</code>.</p>
{{else}}
<p data-secret-gone>This token's secret was shown once, when it was created, and cannot be shown again.</p>
{{#if canRevoke}}<p>Lost it? <a href="{{revokeAndNewPath}}">Revoke this token and create a new one</a>.</p>{{/if}}
{{/if}}
<p><a href="{{listPath}}">Back to API tokens</a></p>
`;

/** Editing a token's grants and its own rate limit. */
export const TOKEN_GRANTS_TEMPLATE = `<h1>Grants of “{{token.name}}”</h1>
<form method="post" action="{{grantsPath}}">
  <input type="hidden" name="csrf_token" value="{{csrfToken}}">
  {{> grantMatrix matrix}}
  <label for="token-rate-limit">Rate limit (requests per window, optional)</label>
  <input type="text" inputmode="numeric" id="token-rate-limit" name="rate_limit" value="{{rateLimit}}" autocomplete="off" aria-describedby="token-rate-limit-hint{{#if rateLimitError}} token-rate-limit-error{{/if}}"{{#if rateLimitError}} aria-invalid="true"{{/if}}>
  <p class="hint" id="token-rate-limit-hint">Leave empty for the API's limit. A request over it is answered 429 until the window ends.</p>
  {{#if rateLimitError}}<p class="error" id="token-rate-limit-error">Rate limit {{rateLimitError}}</p>{{/if}}
  <div class="form-actions"><button class="primary">Save grants</button> <a class="button" href="{{listPath}}">Cancel</a></div>
</form>
`;

/** The confirmation step before a revocation, which cannot be undone. */
export const TOKEN_REVOKE_TEMPLATE = `<h1>Revoke “{{token.name}}”?</h1>
<p>Revoking is permanent: requests with this token are refused from now on, and it can never be enabled again.</p>
<form method="post" action="{{revokePath}}">
  <input type="hidden" name="csrf_token" value="{{csrfToken}}">
  {{#if thenNew}}<input type="hidden" name="then" value="new">{{/if}}
  <div class="form-actions"><button class="danger">Revoke token</button> <a class="button" href="{{listPath}}">Cancel</a></div>
</form>
`;

/** The default permissions list: what the code-hook path may read. */
export const SETTINGS_TEMPLATE = `<h1>Default permissions</h1>
<p>What requests authenticated by the app's own authentication code (not a Bearer token) may read. Only <code>index</code> and <code>show</code> can be granted here: writes always need a Bearer token.</p>
<form method="post" action="{{settingsPath}}">
  <input type="hidden" name="csrf_token" value="{{csrfToken}}">
  {{> grantMatrix matrix}}
  <div class="form-actions"><button class="primary">Save default permissions</button></div>
</form>
`;
