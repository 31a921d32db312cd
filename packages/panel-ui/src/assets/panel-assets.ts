/**
 * The screens' stylesheet and their one script, served as files by the plugin: the
 * Content-Security-Policy allows no inline script or style.
 */
export const PANEL_CSS = `*{box-sizing:border-box}
body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f2933;background:#f5f7fa}
a{color:#1d4ed8}
.shell{display:grid;grid-template-columns:14rem minmax(0,1fr);min-height:100vh}
.sidebar{background:#1f2933;color:#e4e7eb;padding:1rem}
.sidebar a{color:#e4e7eb;text-decoration:none;display:block;padding:.3rem .5rem;border-radius:4px}
.sidebar a:hover,.sidebar a:focus{background:#3e4c59}
.sidebar a[aria-current=page]{background:#52606d;font-weight:600}
.sidebar h2{font-size:.75rem;text-transform:uppercase;letter-spacing:.06em;color:#9aa5b1;margin:1.2rem 0 .3rem}
.sidebar ul{list-style:none;margin:0;padding:0}
.sidebar .brand{font-weight:700;font-size:1.1rem}
.sidebar .resource{padding:.3rem .5rem;display:block;color:#cbd2d9}
main{padding:1.5rem 2rem;max-width:70rem;min-width:0}
header.top{display:flex;flex-wrap:wrap;justify-content:flex-end;gap:.5rem 1rem;align-items:center;padding:.5rem 2rem;background:#fff;border-bottom:1px solid #e4e7eb}
header.top form{margin:0}
.flash{padding:.6rem 1rem;border-radius:4px;margin-bottom:1rem;background:#e0f2fe;border:1px solid #7dd3fc}
.flash.alert{background:#fee2e2;border-color:#fca5a5}
table{border-collapse:collapse;width:100%;background:#fff}
th,td{text-align:left;padding:.45rem .6rem;border-bottom:1px solid #e4e7eb;vertical-align:top}
th{background:#f0f4f8;font-weight:600}
td.actions form{display:inline}
button,.button{font:inherit;padding:.35rem .8rem;border-radius:4px;border:1px solid #9aa5b1;background:#fff;color:#1f2933;cursor:pointer;text-decoration:none;display:inline-block}
button.primary,.button.primary{background:#1d4ed8;border-color:#1d4ed8;color:#fff}
button.danger{background:#b91c1c;border-color:#b91c1c;color:#fff}
button:focus-visible,a:focus-visible,input:focus-visible{outline:3px solid #f59e0b;outline-offset:2px}
label{display:block;font-weight:600;margin:.8rem 0 .2rem}
input[type=text],input[type=password],input[type=email],input[type=datetime-local]{font:inherit;padding:.35rem .5rem;border:1px solid #9aa5b1;border-radius:4px;width:100%;max-width:28rem}
.matrix td,.matrix th{text-align:center}.matrix th[scope=row]{text-align:left}
.matrix label{margin:0;font-weight:normal}
.error{color:#b91c1c;margin:.2rem 0}
.hint{color:#52606d;font-size:.9rem;margin:.2rem 0}
.secret{display:block;padding:.8rem;background:#fff;border:2px dashed #1d4ed8;font-size:1rem;word-break:break-all;margin:.5rem 0}
.status{font-weight:600}.status-Active{color:#047857}.status-Disabled{color:#b45309}.status-Revoked,.status-Expired{color:#6b7280}
.visually-hidden{position:absolute;width:1px;height:1px;margin:-1px;padding:0;border:0;overflow:hidden;clip:rect(0 0 0 0);clip-path:inset(50%);white-space:nowrap}
.form-actions{margin-top:1.2rem;display:flex;flex-wrap:wrap;gap:.6rem}
.skip-link{position:absolute;left:.5rem;top:-3rem;background:#fff;color:#1d4ed8;padding:.5rem 1rem;border-radius:4px;z-index:10}
.skip-link:focus{top:.5rem}
.table-scroll{overflow-x:auto;max-width:100%;position:relative}
fieldset{min-width:0}
.table-scroll:focus-visible{outline:3px solid #f59e0b;outline-offset:2px}
code,.secret{overflow-wrap:anywhere}
.breadcrumbs{margin:0 0 .3rem;color:#52606d}
.list-tools{display:flex;flex-wrap:wrap;gap:.6rem 1rem;align-items:flex-end;justify-content:space-between;margin:.5rem 0}
.search{display:flex;flex-wrap:wrap;gap:.4rem;align-items:center}.search label{margin:0;flex-basis:100%}
input[type=search],input[type=date],input[type=number],select,textarea{font:inherit;padding:.35rem .5rem;border:1px solid #9aa5b1;border-radius:4px;max-width:100%;background:#fff;color:#1f2933}
input[type=search]{width:18rem}
textarea{width:100%;max-width:40rem}
.filters{background:#fff;border:1px solid #e4e7eb;border-radius:4px;padding:.5rem .8rem;margin:.5rem 0}
.filters summary{cursor:pointer;font-weight:600;min-height:24px}
.filter-grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(13rem,1fr));gap:0 1rem}
.filter-grid input{width:100%}
.range{border:0;padding:0;margin:.8rem 0 0}.range legend{font-weight:600;padding:0}.range label{font-weight:normal;margin:.2rem 0 0}
.applied{list-style:none;padding:0;margin:.5rem 0;display:flex;flex-wrap:wrap;gap:.4rem}
.applied li{background:#e0f2fe;border-radius:4px;padding:.2rem .5rem}
.applied a{display:inline-block;min-height:24px;padding:.1rem .2rem}
.result-line{margin:.6rem 0;color:#3e4c59}
th a{display:inline-block;min-height:24px;padding:.1rem 0}
.pagination ul{list-style:none;padding:0;margin:1rem 0;display:flex;flex-wrap:wrap;gap:.3rem}
.pagination a{display:inline-block;min-width:2rem;min-height:2rem;padding:.25rem .5rem;text-align:center;border:1px solid #cbd2d9;border-radius:4px;background:#fff}
.pagination a[aria-current=page]{background:#1d4ed8;color:#fff;border-color:#1d4ed8;font-weight:600}
.per-page{display:flex;flex-wrap:wrap;gap:.4rem;align-items:center;margin:1rem 0}.per-page label{margin:0}
dl.record{display:grid;grid-template-columns:minmax(8rem,14rem) minmax(0,1fr);gap:.4rem 1rem;background:#fff;padding:1rem;border:1px solid #e4e7eb;border-radius:4px}
dl.record dt{font-weight:600}dl.record dd{margin:0;overflow-wrap:anywhere}
.association{margin-top:1.5rem}
.panel-actions{display:flex;flex-wrap:wrap;gap:.6rem;align-items:center}
.record-actions{display:flex;flex-wrap:wrap;gap:.6rem}
.multiline{white-space:pre-wrap}
.inline-list,.files{list-style:none;padding:0;margin:0;display:flex;flex-wrap:wrap;gap:.3rem .8rem}
.thumb{max-width:4rem;max-height:4rem;vertical-align:middle}
pre.json{margin:0;white-space:pre-wrap;overflow-wrap:anywhere;font-size:.85rem}
.error-summary{border:3px solid #b91c1c;background:#fff;padding:.5rem 1rem;margin:0 0 1rem}
.error-summary h2{margin:.2rem 0 .4rem;font-size:1.1rem}
.error-summary:focus{outline:3px solid #f59e0b}
.field-error{border-left:4px solid #b91c1c;padding-left:.8rem}
.checkbox{display:flex;gap:.5rem;align-items:center;margin:.8rem 0 .2rem}.checkbox label{margin:0}
.checkbox input{width:1.25rem;height:1.25rem}
.button.danger{background:#b91c1c;border-color:#b91c1c;color:#fff}
select:focus-visible,textarea:focus-visible,summary:focus-visible{outline:3px solid #f59e0b;outline-offset:2px}
.empty-state{background:#fff;border:1px dashed #9aa5b1;padding:1rem;border-radius:4px}
@media (max-width:48rem){
.shell{grid-template-columns:minmax(0,1fr)}
.sidebar{padding:.75rem 1rem}
main{padding:1rem}
header.top{padding:.5rem 1rem;justify-content:flex-start}
dl.record{grid-template-columns:minmax(0,1fr)}
input[type=search]{width:100%}
}
`;

/**
 * The copy button of the reveal screen. The button is rendered `hidden` so that without
 * JavaScript nothing is offered that does not work; the secret stays selectable either way.
 */
export const COPY_SECRET_JS = `(function () {
  'use strict';
  document.querySelectorAll('[data-copy-target]').forEach(function (button) {
    var target = document.querySelector(button.getAttribute('data-copy-target'));
    if (!target) return;
    button.hidden = false;
    button.addEventListener('click', function () {
      var status = document.getElementById(button.getAttribute('aria-describedby'));
      var say = function (text) { if (status) status.textContent = text; };
      if (!navigator.clipboard) { say('Select the token and copy it.'); return; }
      navigator.clipboard.writeText(target.textContent.trim()).then(
        function () { say('Copied to the clipboard.'); },
        function () { say('Could not copy: select the token and copy it.'); }
      );
    });
  });
})();
`;
