// Issue 42, L5: "labels follow the target resource's read rule for the actor (the target's scope
// AND the right to list that resource), on every path (list, show, include, screens); anonymous
// actors get {id, label: null} where they cannot read the target". The demo's products are public
// (index and show without a key); its product categories are listed by signed-in users only
// (ProductCategoryPolicy.index: `this.user !== null`), so an anonymous GET /product_categories is 401.
import { expect, it } from 'vitest';
import { describeOnEachDatabase } from './demo-app-support.js';
import { PEOPLE, signInAs } from './resource-screens-support.js';

const V1 = '/api/resources/v1';

type Product = { id: number; product_category: { id: number; label: string | null; record?: unknown } | null };

describeOnEachDatabase('labels follow the target\'s read rule (Edition A)', (demo) => {
  const get = (url: string, headers: Record<string, string> = {}) => demo().app.inject({ method: 'GET', url: `${V1}${url}`, headers });

  it('"anonymous actors get {id, label: null} where they cannot read the target": GET /products and /products/:id name each category without its label, while /product_categories is refused', async () => {
    expect((await get('/product_categories')).statusCode).toBe(401);
    const list = await get('/products?per_page=50');
    expect(list.statusCode).toBe(200);
    const categorized = (list.json().records as Product[]).filter((product) => product.product_category !== null);
    expect(categorized.length).toBeGreaterThan(0);
    for (const product of categorized) expect(product.product_category).toEqual({ id: product.product_category!.id, label: null });
    const one = (await get(`/products/${categorized[0]!.id}`)).json().record as Product;
    expect(one.product_category).toEqual({ id: categorized[0]!.product_category!.id, label: null });
  });

  it('"on every path": include=product_category embeds no record of a category the anonymous client may not list', async () => {
    const response = await get('/products?per_page=50&include=product_category');
    expect(response.statusCode).toBe(200);
    const products = (response.json().records as Product[]).filter((p) => p.product_category !== null);
    expect(products.length).toBeGreaterThan(0);
    for (const product of products) {
      expect(product.product_category!.label).toBeNull();
      expect(product.product_category!.record ?? null).toBeNull();
    }
  });

  it('the screens ask the same rule: Ada, who may list categories, reads their names on the products screen', async () => {
    const ada = await signInAs(demo(), PEOPLE.ada);
    const names = (await demo().database.db.selectFrom('product_categories').select('name').execute()).map((row) => row.name as string);
    const page = await ada.get('/panel/resources/products');
    expect(page.statusCode).toBe(200);
    expect(names.some((name) => page.body.includes(name))).toBe(true);
  });
});

describeOnEachDatabase(
  'labels follow the target\'s read rule (Edition B)',
  (demo) => {
    const get = (url: string, headers: Record<string, string> = {}) => demo().app.inject({ method: 'GET', url: `${V1}${url}`, headers });

    it('a token that may list products but not categories reads no category label (Edition B leaves the key out); a token with both grants reads them', async () => {
      const { secret } = await demo().tokens!.create({ name: 'products only', grants: ['products:index', 'products:show'], createdById: 1 });
      const narrow = (await get('/products?per_page=50', { authorization: `Bearer ${secret}` })).json().records as Product[];
      expect(narrow.length).toBeGreaterThan(0);
      for (const product of narrow) expect(product.product_category?.label ?? null).toBeNull();
      const token = (await get('/products?per_page=50', { authorization: `Bearer ${demo().tokenSecrets!.get('all')!}` })).json().records as Product[];
      expect(token.some((product) => typeof product.product_category?.label === 'string')).toBe(true);
    });
  },
  { edition: 'B' },
);
