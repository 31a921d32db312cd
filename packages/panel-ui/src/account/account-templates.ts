/**
 * The panel's own pages before and around the screens (sign-in, password confirmation, the
 * security page), one card on the screens' stylesheet. Every `{{value}}` is escaped; only the
 * rendered page body is inserted raw into the layout.
 */
export const ACCOUNT_LAYOUT = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>{{title}} · Panel</title>
  <link rel="stylesheet" href="{{stylesheet}}">
  {{#if csrfToken}}<meta name="csrf-token" content="{{csrfToken}}">{{/if}}
</head>
<body class="account">
<main id="main" class="card">
  <p class="brand"><a href="{{rootPath}}">Panel</a></p>
  {{{body}}}
</main>
</body>
</html>
`;

const HIDDEN = `{{#if returnTo}}<input type="hidden" name="return_to" value="{{returnTo}}">{{/if}}{{#if formCsrfToken}}<input type="hidden" name="csrf_token" value="{{formCsrfToken}}">{{/if}}`;

const PASSWORD = `<label for="password">Password</label>
    <input id="password" name="password" type="password" autocomplete="current-password" required>`;

/** The pages, by name. */
export const ACCOUNT_PAGES: Readonly<Record<string, string>> = {
  signIn: `<h1>Sign in</h1>
  {{#if error}}<p class="flash alert" role="alert">{{error}}</p>{{/if}}
  <form method="post" action="{{action}}">${HIDDEN}
    <label for="email">Email</label>
    <input id="email" name="email" type="email" autocomplete="username" required>
    ${PASSWORD}
    <div class="form-actions"><button class="primary">Sign in</button></div>
  </form>`,
  confirm: `<h1>Confirm your password</h1>
  {{#if error}}<p class="flash alert" role="alert">{{error}}</p>{{/if}}
  <p>This action is sensitive: type your password again to go on.</p>
  <form method="post" action="{{action}}">${HIDDEN}
    ${PASSWORD}
    <div class="form-actions"><button class="primary">Confirm</button></div>
  </form>`,
  security: `<h1>Security</h1>
  <p>Signing out everywhere ends every session of your account, on every device, this one included.</p>
  <form method="post" action="{{action}}">${HIDDEN}
    <div class="form-actions"><button class="danger">Sign out everywhere</button></div>
  </form>`,
};

/** The card of the account pages, added to the screens' stylesheet. */
export const ACCOUNT_CSS = `body.account{display:flex;justify-content:center}
.card{background:#fff;border:1px solid #e4e7eb;border-radius:6px;padding:1.5rem 2rem;margin:4rem 1rem;max-width:30rem;width:100%}
.card .brand a{font-weight:700;text-decoration:none;color:#1f2933}
.card input[type=password],.card input[type=email]{min-width:0;width:100%}
`;
