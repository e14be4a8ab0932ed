// The tool-search suite's generated API: operations of a made-up company's services, named and
// described as a real API would be (an action on a resource of a domain: `approveExpenseClaim`,
// "Approve a pending expense claim; its owner is notified."), so that a search has to tell
// near neighbours apart (approve a timesheet, get an expense claim). The same operations are
// rendered as an OpenAPI document (openapi-document.ts) and as MCP tools (mcp-server.ts).

/** Where an argument goes on the HTTP request (MCP tools take them all as one object). */
export type ParameterPlace = 'path' | 'query' | 'body';

export interface CatalogParameter {
  name: string;
  in: ParameterPlace;
  type: 'string' | 'integer';
  description: string;
  required: boolean;
  enum?: string[];
}

export interface CatalogOperation {
  /** camelCase, the OpenAPI operationId (`approveExpenseClaim`, `euApproveExpenseClaim`). */
  id: string;
  /** snake_case, the MCP tool name (`approve_expense_claim`). */
  toolName: string;
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** With `{param}` placeholders for path parameters. */
  path: string;
  /** The domain: the OpenAPI tag. */
  tag: string;
  summary: string;
  parameters: CatalogParameter[];
}

interface Domain {
  name: string;
  /** Two fields every resource of the domain has (create/update/search arguments). */
  fields: [string, string];
  /** camelCase plurals; the first is the one the quick (100-operation) catalog has. */
  resources: string[];
}

const DOMAINS: Domain[] = [
  {
    name: 'billing',
    fields: ['amount', 'currency'],
    resources: [
      'invoices',
      'payments',
      'refunds',
      'subscriptions',
      'coupons',
      'taxRates',
      'creditNotes',
      'payouts',
      'disputes',
      'priceLists',
    ],
  },
  {
    name: 'inventory',
    fields: ['sku', 'quantity'],
    resources: [
      'products',
      'warehouses',
      'stockLevels',
      'suppliers',
      'purchaseOrders',
      'batches',
      'binLocations',
      'transfers',
      'barcodes',
      'categories',
    ],
  },
  {
    name: 'shipping',
    fields: ['carrier', 'weightKg'],
    resources: [
      'trackingEvents',
      'shipments',
      'parcels',
      'carriers',
      'labels',
      'returns',
      'pickups',
      'zones',
      'manifests',
      'deliveryWindows',
    ],
  },
  {
    name: 'customers',
    fields: ['email', 'country'],
    resources: [
      'accounts',
      'contacts',
      'addresses',
      'notes',
      'segments',
      'loyaltyPoints',
      'consents',
      'households',
      'preferences',
      'tags',
    ],
  },
  {
    name: 'support',
    fields: ['priority', 'assignee'],
    resources: [
      'tickets',
      'comments',
      'macros',
      'slaPolicies',
      'agents',
      'queues',
      'surveys',
      'escalations',
      'articles',
      'attachments',
    ],
  },
  {
    name: 'analytics',
    fields: ['metric', 'period'],
    resources: [
      'reports',
      'dashboards',
      'metrics',
      'funnels',
      'cohorts',
      'events',
      'scheduledQueries',
      'alerts',
      'goals',
      'experiments',
    ],
  },
  {
    name: 'marketing',
    fields: ['channel', 'audience'],
    resources: [
      'campaigns',
      'emails',
      'audiences',
      'landingPages',
      'promotions',
      'newsletters',
      'adSets',
      'referrals',
      'webinars',
      'smsMessages',
    ],
  },
  {
    name: 'payroll',
    fields: ['employeeId', 'period'],
    resources: [
      'expenseClaims',
      'employees',
      'payslips',
      'timesheets',
      'bonuses',
      'deductions',
      'payRuns',
      'leaveRequests',
      'benefits',
      'contracts',
    ],
  },
  {
    name: 'identity',
    fields: ['userId', 'scope'],
    resources: [
      'users',
      'roles',
      'permissions',
      'apiKeys',
      'sessions',
      'groups',
      'invitations',
      'auditLogs',
      'mfaDevices',
      'passwordPolicies',
    ],
  },
  {
    name: 'storage',
    fields: ['region', 'sizeGb'],
    resources: [
      'buckets',
      'objects',
      'snapshots',
      'volumes',
      'backups',
      'lifecycleRules',
      'accessPolicies',
      'uploads',
      'quotas',
      'replicas',
    ],
  },
];

/** Beyond 1,000 operations the catalog repeats per region (`euApproveExpenseClaim`, `/eu/...`). */
const REGIONS = ['', 'eu', 'us', 'apac', 'latam', 'mea', 'nordics', 'anz', 'india', 'japan'];
const PER_REGION = 1000;
/** The largest catalog: every action on every resource of every domain in every region. */
export const MAX_OPERATIONS = REGIONS.length * PER_REGION;

/** One resource of one domain, and its words in every form an action needs. */
interface Target {
  domain: Domain;
  /** camelCase plural and singular (`expenseClaims`, `expenseClaim`). */
  plural: string;
  singular: string;
  /** Lower-case words (`expense claims`, `expense claim`). */
  pluralWords: string;
  singularWords: string;
  /** The path segment (`expense-claims`) and the id parameter (`expenseClaimId`). */
  segment: string;
  idParam: string;
}

interface Action {
  verb: string;
  /** Whether the operation names one resource by its id (a path parameter). */
  one: boolean;
  method: CatalogOperation['method'];
  /** After `/<domain>/<resource>` (and `/{id}` when `one`). */
  suffix: string;
  /** The operation's name uses the plural (`listExpenseClaims`) or the singular. */
  plural: boolean;
  summary: (t: Target) => string;
  parameters: (t: Target) => CatalogParameter[];
}

const param = (
  name: string,
  place: ParameterPlace,
  description: string,
  extra: Partial<CatalogParameter> = {},
): CatalogParameter => ({ name, in: place, type: 'string', description, required: false, ...extra });

const fieldParams = (t: Target, required: boolean): CatalogParameter[] =>
  t.domain.fields.map((field) =>
    param(field, 'body', `The ${words(field)} of the ${t.singularWords}.`, {
      required,
      ...(field === 'quantity' || field.endsWith('Kg') || field.endsWith('Gb') ? { type: 'integer' } : {}),
    }),
  );

const ACTIONS: Action[] = [
  {
    verb: 'list',
    one: false,
    method: 'GET',
    suffix: '',
    plural: true,
    summary: (t) =>
      `List the ${t.pluralWords} of the ${t.domain.name} service, newest first, a page at a time.`,
    parameters: () => [
      param('limit', 'query', 'How many to return (at most 100).', { type: 'integer' }),
      param('cursor', 'query', 'Where the previous page ended.'),
    ],
  },
  {
    verb: 'get',
    one: true,
    method: 'GET',
    suffix: '',
    plural: false,
    summary: (t) => `Get one ${t.singularWords} of ${t.domain.name} by its id, with every field.`,
    parameters: () => [],
  },
  {
    verb: 'create',
    one: false,
    method: 'POST',
    suffix: '',
    plural: false,
    summary: (t) => `Create a ${t.singularWords} in ${t.domain.name}.`,
    parameters: (t) => [...fieldParams(t, true), param('note', 'body', 'A free-text note kept with it.')],
  },
  {
    verb: 'update',
    one: true,
    method: 'PATCH',
    suffix: '',
    plural: false,
    summary: (t) => `Change some fields of a ${t.singularWords}; the others keep their values.`,
    parameters: (t) => fieldParams(t, false),
  },
  {
    verb: 'delete',
    one: true,
    method: 'DELETE',
    suffix: '',
    plural: false,
    summary: (t) => `Delete a ${t.singularWords} for good (archive it to keep its history).`,
    parameters: () => [],
  },
  {
    verb: 'search',
    one: false,
    method: 'GET',
    suffix: '/search',
    plural: true,
    summary: (t) => `Search ${t.pluralWords} by free text and by ${words(t.domain.fields[0])}.`,
    parameters: (t) => [
      param('q', 'query', 'Words to look for.', { required: true }),
      param(t.domain.fields[0], 'query', `Only ${t.pluralWords} with this ${words(t.domain.fields[0])}.`),
    ],
  },
  {
    verb: 'archive',
    one: true,
    method: 'POST',
    suffix: '/archive',
    plural: false,
    summary: (t) => `Archive a ${t.singularWords} so it no longer shows in lists; it can be restored.`,
    parameters: () => [param('reason', 'body', 'Why it is archived.')],
  },
  {
    verb: 'restore',
    one: true,
    method: 'POST',
    suffix: '/restore',
    plural: false,
    summary: (t) => `Restore an archived ${t.singularWords}.`,
    parameters: () => [],
  },
  {
    verb: 'export',
    one: false,
    method: 'POST',
    suffix: '/export',
    plural: true,
    summary: (t) => `Export the ${t.pluralWords} of ${t.domain.name} as a CSV or JSON file.`,
    parameters: () => [
      param('format', 'body', 'The file format.', { required: true, enum: ['csv', 'json'] }),
      param('since', 'body', 'Only those changed since this date (YYYY-MM-DD).'),
    ],
  },
  {
    verb: 'approve',
    one: true,
    method: 'POST',
    suffix: '/approve',
    plural: false,
    summary: (t) => `Approve a pending ${t.singularWords}; its owner is notified.`,
    parameters: () => [param('note', 'body', 'A note for the owner.')],
  },
];

/** `expenseClaims` → `expense claims`. */
function words(camel: string): string {
  return camel.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
}

/** `expenseClaims` → `expenseClaim`, `categories` → `category`, `batches` → `batch`, `addresses` → `address`. */
function singularOf(plural: string): string {
  if (plural.endsWith('ies')) return `${plural.slice(0, -3)}y`;
  if (/(ch|sh|ss|x)es$/.test(plural)) return plural.slice(0, -2);
  return plural.endsWith('s') ? plural.slice(0, -1) : plural;
}

const capitalized = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);
const snake = (camel: string): string => words(camel).replace(/ /g, '_');

function targetOf(domain: Domain, plural: string): Target {
  const singular = singularOf(plural);
  return {
    domain,
    plural,
    singular,
    pluralWords: words(plural),
    singularWords: words(singular),
    segment: words(plural).replace(/ /g, '-'),
    idParam: `${singular}Id`,
  };
}

function operationOf(action: Action, target: Target, region: string): CatalogOperation {
  const noun = capitalized(action.plural ? target.plural : target.singular);
  const base = `${action.verb}${noun}`;
  const id = region === '' ? base : `${region}${capitalized(base)}`;
  const idPart = action.one ? `/{${target.idParam}}` : '';
  const idParameter = action.one
    ? [param(target.idParam, 'path', `The ${target.singularWords}'s id.`, { required: true })]
    : [];
  return {
    id,
    toolName: snake(id),
    method: action.method,
    path: `${region === '' ? '' : `/${region}`}/${target.domain.name}/${target.segment}${idPart}${action.suffix}`,
    tag: target.domain.name,
    summary: `${action.summary(target)}${region === '' ? '' : ` (${region.toUpperCase()} region)`}`,
    parameters: [...idParameter, ...action.parameters(target)],
  };
}

/**
 * The first `count` operations (at most MAX_OPERATIONS), always in the same order: every action
 * on the first resource of every domain, then on the second, and so on; past 1,000 the same
 * again per region. So 100 operations already span every domain and action.
 */
export function catalogOperations(count: number): CatalogOperation[] {
  if (!Number.isInteger(count) || count < 1 || count > MAX_OPERATIONS)
    throw new Error(`tool-search bench: a catalog has 1 to ${MAX_OPERATIONS} operations, not ${count}`);
  const operations: CatalogOperation[] = [];
  for (let i = 0; i < count; i++) {
    const region = REGIONS[Math.floor(i / PER_REGION)]!;
    const inRegion = i % PER_REGION;
    const domain = DOMAINS[inRegion % DOMAINS.length]!;
    const action = ACTIONS[Math.floor(inRegion / DOMAINS.length) % ACTIONS.length]!;
    const resource = domain.resources[Math.floor(inRegion / (DOMAINS.length * ACTIONS.length))]!;
    operations.push(operationOf(action, targetOf(domain, resource), region));
  }
  return operations;
}
