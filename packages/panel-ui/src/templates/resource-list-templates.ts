/** One shown value (`ShownValue`): a link, text with line breaks, a list, files, JSON, or "—" for none. */
export const VALUE_PARTIAL = `{{#if href}}<a href="{{href}}">{{isolated text}}</a>{{else if multiline}}<span class="multiline">{{isolated multiline}}</span>{{else if list}}<ul class="inline-list">{{#each list}}<li>{{isolated this}}</li>{{/each}}</ul>{{else if files}}<ul class="files">{{#each files}}<li>{{#if image}}<img src="{{url}}" alt="" class="thumb"> {{/if}}<a href="{{url}}">{{isolated filename}}</a></li>{{/each}}</ul>{{else if json}}<pre class="json">{{json}}</pre>{{else if empty}}<span aria-hidden="true">—</span><span class="visually-hidden">none</span>{{else}}{{isolated text}}{{/if}}`;

/** A table of records: a caption, sortable column headers, the title cell as the row's header. */
export const RECORDS_TABLE_PARTIAL = `<div class="table-scroll" role="region" aria-labelledby="{{tableId}}-caption" tabindex="0">
<table>
  <caption id="{{tableId}}-caption"{{#if hideCaption}} class="visually-hidden"{{/if}}>{{caption}}</caption>
  <thead><tr>{{#each headers}}<th scope="col"{{#if ariaSort}} aria-sort="{{ariaSort}}"{{/if}}>{{#if sortHref}}<a href="{{sortHref}}">{{label}}{{#if arrow}} <span aria-hidden="true">{{arrow}}</span>{{/if}}<span class="visually-hidden">, sort {{nextDirection}}</span></a>{{else}}{{label}}{{/if}}</th>{{/each}}</tr></thead>
  <tbody>
  {{#each rows}}<tr>{{#each cells}}{{#if rowHeader}}<th scope="row">{{> value value}}</th>{{else}}<td>{{> value value}}</td>{{/if}}{{/each}}</tr>
  {{/each}}
  </tbody>
</table>
</div>`;

/** A resource's index, and an association's list: search, filters, the table, pagination, rows per page. */
export const RESOURCE_INDEX_TEMPLATE = `{{#if parentHref}}<p class="breadcrumbs"><a href="{{parentHref}}">{{isolated parentLabel}}</a></p>{{/if}}
<h1>{{heading}}{{#if parentLabel}} of {{isolated parentLabel}}{{/if}}</h1>
<div class="list-tools">
  {{#if search}}<form method="get" action="{{path}}" role="search" class="search">
    <label for="search-q">{{search.label}}</label>
    <input type="search" id="search-q" name="q" value="{{search.value}}">
    {{#each search.hidden}}<input type="hidden" name="{{name}}" value="{{value}}">{{/each}}
    <button>Search</button>
  </form>{{/if}}
  {{#if newHref}}<a class="button primary" href="{{newHref}}">{{newLabel}}</a>{{/if}}
</div>
{{#if filters}}<details class="filters">
  <summary>Filters</summary>
  <form method="get" action="{{path}}">
    {{#each filters.hidden}}<input type="hidden" name="{{name}}" value="{{value}}">{{/each}}
    <div class="filter-grid">
    {{#each filters.controls}}
      {{#if text}}<div><label for="{{text.id}}">{{label}}</label><input type="{{text.type}}" id="{{text.id}}" name="{{text.name}}" value="{{text.value}}"{{#if text.inputmode}} inputmode="{{text.inputmode}}"{{/if}}></div>{{/if}}
      {{#if choice}}<div><label for="{{choice.id}}">{{label}}</label><select id="{{choice.id}}" name="{{choice.name}}">{{#each choice.options}}<option value="{{value}}"{{#if selected}} selected{{/if}}>{{label}}</option>{{/each}}</select></div>{{/if}}
      {{#if range}}<fieldset class="range"><legend>{{label}}</legend>{{#if range.hint}}<p class="hint">{{range.hint}}</p>{{/if}}
        <label for="{{range.from.id}}">From</label><input type="{{range.from.type}}" id="{{range.from.id}}" name="{{range.from.name}}" value="{{range.from.value}}"{{#if range.from.inputmode}} inputmode="{{range.from.inputmode}}"{{/if}}>
        <label for="{{range.to.id}}">To</label><input type="{{range.to.type}}" id="{{range.to.id}}" name="{{range.to.name}}" value="{{range.to.value}}"{{#if range.to.inputmode}} inputmode="{{range.to.inputmode}}"{{/if}}>
      </fieldset>{{/if}}
    {{/each}}
    </div>
    <div class="form-actions"><button>Apply filters</button></div>
  </form>
</details>{{/if}}
{{#if applied.length}}<h2 class="visually-hidden" id="applied-heading">Applied filters</h2><ul class="applied" aria-labelledby="applied-heading">{{#each applied}}<li>{{text}} <a href="{{removeHref}}">Remove<span class="visually-hidden"> the filter “{{text}}”</span></a></li>{{/each}}</ul>{{/if}}
<p class="result-line">{{resultLine}}</p>
{{#if hasRows}}{{> recordsTable tableId="list" caption=caption headers=headers rows=rows hideCaption=true}}
{{else if pastEnd}}<p class="empty-state"><a href="{{pastEnd.href}}">{{pastEnd.label}}</a></p>
{{else}}<p class="empty-state">{{#if filtered}}Nothing matches.{{else}}Nothing here yet.{{/if}}{{#if newHref}} <a href="{{newHref}}">{{newLabel}}</a>{{/if}}</p>{{/if}}
{{#if pagination}}<nav class="pagination" aria-label="Pagination">
  <ul>
    {{#if pagination.prevHref}}<li><a href="{{pagination.prevHref}}" rel="prev">Previous<span class="visually-hidden"> page</span></a></li>{{/if}}
    {{#each pagination.pages}}{{#if gap}}<li><span aria-hidden="true">…</span></li>{{else}}<li><a href="{{href}}"{{#if current}} aria-current="page"{{/if}}><span class="visually-hidden">Page </span>{{number}}</a></li>{{/if}}{{/each}}
    {{#if pagination.nextHref}}<li><a href="{{pagination.nextHref}}" rel="next">Next<span class="visually-hidden"> page</span></a></li>{{/if}}
  </ul>
</nav>{{/if}}
<form method="get" action="{{path}}" class="per-page">
  {{#each perPage.hidden}}<input type="hidden" name="{{name}}" value="{{value}}">{{/each}}
  <label for="per-page">Rows per page</label>
  <select id="per-page" name="per_page">{{#each perPage.choices}}<option value="{{value}}"{{#if selected}} selected{{/if}}>{{value}}</option>{{/each}}</select>
  <button>Show</button>
</form>
`;
