/** The shell around every screen: sidebar, top bar with sign-out, flash area, then the screen. */
export const LAYOUT_TEMPLATE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>{{title}} · Panel</title>
  <link rel="stylesheet" href="{{assets}}/panel.css">
  {{#if csrfToken}}<meta name="csrf-token" content="{{csrfToken}}">{{/if}}
  {{#each scripts}}<script src="{{this}}" defer></script>{{/each}}
</head>
<body>
<a class="skip-link" href="#main">Skip to main content</a>
<div class="shell">
  <nav class="sidebar" aria-label="Panel">
    <a class="brand" href="{{rootPath}}">Panel</a>
    <h2 id="resources-heading">Resources</h2>
    <ul aria-labelledby="resources-heading">
      {{#each resources}}<li>{{#if href}}<a href="{{href}}"{{#if current}} aria-current="page"{{/if}}>{{label}}</a>{{else}}<span class="resource">{{label}}</span>{{/if}}</li>{{/each}}
    </ul>
    {{#each sections}}
    <h2 id="{{id}}-heading">{{heading}}</h2>
    <ul aria-labelledby="{{id}}-heading">
      {{#each links}}
      <li><a href="{{href}}" {{#if current}}aria-current="page"{{/if}}>{{label}}</a></li>
      {{/each}}
    </ul>
    {{/each}}
  </nav>
  <div>
    <header class="top">
      {{#if user}}
      <span>Signed in as {{user.displayName}}</span>
      <form method="post" action="{{logoutPath}}"><input type="hidden" name="csrf_token" value="{{csrfToken}}"><button>Sign out</button></form>
      {{else}}
      <a href="{{signInPath}}">Sign in</a>
      {{/if}}
    </header>
    <main id="main">
      {{#if flash}}<p class="flash{{#if flash.alert}} alert{{/if}}" role="{{#if flash.alert}}alert{{else}}status{{/if}}">{{flash.text}}</p>{{/if}}
      {{{body}}}
    </main>
  </div>
</div>
</body>
</html>
`;
