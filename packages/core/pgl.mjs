import { PGlite } from '@electric-sql/pglite';
let t=Date.now();
const a = new PGlite(); await a.waitReady; console.log('fresh', Date.now()-t);
t=Date.now(); const blob = await a.dumpDataDir('none'); console.log('dump', Date.now()-t, blob.size);
t=Date.now(); const b = new PGlite({ loadDataDir: blob }); await b.waitReady; console.log('load', Date.now()-t);
t=Date.now(); const c = new PGlite({ loadDataDir: blob }); await c.waitReady; console.log('load2', Date.now()-t);
t=Date.now(); await c.query('select 1'); console.log('q', Date.now()-t);
