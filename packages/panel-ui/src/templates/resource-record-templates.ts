/** One record: its fields in a list of terms, Edit and Delete when allowed, a panel per association. */
export const RESOURCE_SHOW_TEMPLATE = `<p class="breadcrumbs"><a href="{{indexHref}}">{{indexLabel}}</a></p>
<h1>{{isolated heading}}</h1>
{{#if editHref}}<p class="record-actions"><a class="button" href="{{editHref}}">Edit<span class="visually-hidden"> {{isolated heading}}</span></a>{{#if deleteHref}} <a class="button danger" href="{{deleteHref}}">Delete<span class="visually-hidden"> {{isolated heading}}</span></a>{{/if}}</p>{{else if deleteHref}}<p class="record-actions"><a class="button danger" href="{{deleteHref}}">Delete<span class="visually-hidden"> {{isolated heading}}</span></a></p>{{/if}}
<dl class="record">
{{#each terms}}  <dt>{{label}}</dt><dd>{{> value value}}</dd>
{{/each}}</dl>
{{#each panels}}
<section class="association" aria-labelledby="{{id}}">
  <h2 id="{{id}}">{{heading}}{{#if countText}} ({{countText}}){{/if}}</h2>
  {{#if rows.length}}{{> recordsTable tableId=id caption=heading headers=headers rows=rows hideCaption=true}}{{/if}}
  <p class="panel-actions">{{#if countText}}<a href="{{allHref}}">View all {{countText}}<span class="visually-hidden"> {{heading}}</span></a>{{/if}}{{#if newHref}} <a class="button" href="{{newHref}}">{{newLabel}}</a>{{/if}}</p>
</section>
{{/each}}
`;

/** The error messages of one control, tied to it by `aria-describedby`. */
const CONTROL_ERRORS = `{{#if errors}}<p class="error" id="{{errorId}}">{{#each errors}}<span class="visually-hidden">Error: </span>{{../label}} {{this}}<br>{{/each}}</p>{{/if}}`;
const LABEL = `<label for="{{id}}">{{label}}{{#if required}} (required){{/if}}</label>{{#if hint}}<p class="hint" id="{{hintId}}">{{hint}}</p>{{/if}}${CONTROL_ERRORS}`;
const DESCRIBED = `{{#if describedBy}} aria-describedby="{{describedBy}}"{{/if}}{{#if errors}} aria-invalid="true"{{/if}}`;

/** The form controls, one partial per `FormControl` kind (the form model names the partial). */
export const CONTROL_PARTIALS: Readonly<Record<string, string>> = {
  controlText: `${LABEL}<input type="text" id="{{id}}" name="{{name}}" value="{{value}}"{{#if inputmode}} inputmode="{{inputmode}}"{{/if}} spellcheck="false"${DESCRIBED}>`,
  controlInput: `${LABEL}<input type="{{type}}" id="{{id}}" name="{{name}}" value="{{value}}"{{#if step}} step="{{step}}"{{/if}}{{#if autocomplete}} autocomplete="{{autocomplete}}"{{/if}}${DESCRIBED}>`,
  controlTextarea: `${LABEL}<textarea id="{{id}}" name="{{name}}" rows="5"${DESCRIBED}>{{value}}</textarea>`,
  controlSelect: `${LABEL}<select id="{{id}}" name="{{name}}"${DESCRIBED}>{{#each options}}<option value="{{value}}"{{#if selected}} selected{{/if}}>{{label}}</option>{{/each}}</select>`,
  controlCheckbox: `${CONTROL_ERRORS}<div class="checkbox"><input type="hidden" name="{{name}}" value="false"><input type="checkbox" id="{{id}}" name="{{name}}" value="true"{{#if checked}} checked{{/if}}${DESCRIBED}><label for="{{id}}">{{label}}</label></div>`,
  controlFile: `${LABEL}{{#if current}}<div class="hint">Attached now: {{> value current}}</div>{{/if}}{{#each pending}}<div class="checkbox"><input type="checkbox" id="{{../id}}-pending-{{@index}}" name="{{../name}}" value="{{id}}" checked><label for="{{../id}}-pending-{{@index}}">{{isolated filename}} will be attached when you save (untick to leave it out)</label></div>{{/each}}<input type="file" id="{{id}}" name="{{name}}"{{#if multiple}} multiple{{/if}}${DESCRIBED}>`,
};

/**
 * New and edit: the error summary, a control per writable field, the read-only fields, save or
 * cancel; and, for a `confirm: true` field the user may not change yet, a second submit button
 * after Save (Enter still saves) that posts what was typed to keep it while they confirm.
 */
export const RESOURCE_FORM_TEMPLATE = `<p class="breadcrumbs"><a href="{{indexHref}}">{{indexLabel}}</a>{{#if recordHref}} › <a href="{{recordHref}}">{{isolated recordLabel}}</a>{{/if}}</p>
<h1>{{#if recordLabel}}Edit “{{isolated recordLabel}}”{{else}}{{heading}}{{/if}}</h1>
{{#if hasErrors}}<div class="error-summary" role="alert" aria-labelledby="error-summary-title" tabindex="-1" autofocus>
  <h2 id="error-summary-title">There is a problem</h2>
  <ul>{{#each summary}}<li>{{#if href}}<a href="{{href}}">{{text}}</a>{{else}}{{text}}{{/if}}</li>{{/each}}</ul>
</div>{{/if}}
{{#if needsConfirmation}}<p class="hint" id="needs-confirmation">To change {{needsConfirmation}}, confirm your password first, with the button below the form: what you typed is kept (passwords excepted).</p>{{/if}}
<form method="post" action="{{action}}"{{#if multipart}} enctype="multipart/form-data"{{/if}} novalidate>
  <input type="hidden" name="csrf_token" value="{{csrfToken}}">
  {{#if shownValues}}<input type="hidden" name="shown_values" value="{{shownValues}}">{{/if}}
  {{#each controls}}<div class="field{{#if errors}} field-error{{/if}}">{{> (lookup . 'partial') }}</div>
  {{/each}}
  {{#if readOnly.length}}<h2>Not editable</h2>
  <dl class="record">{{#each readOnly}}<dt>{{label}}</dt><dd>{{> value value}}</dd>{{/each}}</dl>{{/if}}
  <div class="form-actions"><button class="primary">{{submitLabel}}</button> <a class="button" href="{{cancelHref}}">Cancel</a></div>
  {{#if needsConfirmation}}<div class="form-actions"><button name="then" value="confirm" aria-describedby="needs-confirmation">Confirm your password</button></div>{{/if}}
</form>
`;

/** The confirmation before a delete, naming the record; a refusal's messages after a failed one. */
export const RESOURCE_DELETE_TEMPLATE = `<p class="breadcrumbs"><a href="{{indexHref}}">{{indexLabel}}</a> › <a href="{{recordHref}}">{{isolated recordLabel}}</a></p>
<h1>Delete “{{isolated recordLabel}}”?</h1>
{{#if errors.length}}<div class="error-summary" role="alert" aria-labelledby="error-summary-title" tabindex="-1" autofocus>
  <h2 id="error-summary-title">It was not deleted</h2>
  <ul>{{#each errors}}<li>{{this}}</li>{{/each}}</ul>
</div>{{/if}}
<p>This deletes the {{humanName}} “{{isolated recordLabel}}”. It cannot be undone.</p>
<form method="post" action="{{action}}">
  <input type="hidden" name="csrf_token" value="{{csrfToken}}">
  <div class="form-actions"><button class="danger">Delete {{humanName}}</button> <a class="button" href="{{recordHref}}">Cancel</a></div>
</form>
`;

/** A refusal or a bad request inside the shell (400, 403, 404). */
export const RESOURCE_PROBLEM_TEMPLATE = `<h1>{{heading}}</h1>
<p role="alert">{{message}}</p>
{{#if confirmPath}}<p><a href="{{confirmPath}}">Confirm your password</a></p>{{/if}}
<p><a href="{{rootPath}}">Back to the panel</a></p>
`;
