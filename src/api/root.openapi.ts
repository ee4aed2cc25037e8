import { operations } from '../platform/http/openapi.js';

/** The root operations as the API reference describes them; each route spreads its own into its schema. */
export const ops = operations(
  { tags: ['Meta'] },
  {
    getApiRoot: {
      summary: 'API root',
      description: 'Links to the docs, the machine-readable description and an index.',
    },
    getOpenApiDescription: {
      summary: 'OpenAPI 3.1 description',
    },
    getApiReferenceMarkdown: {
      summary: 'API reference (Markdown)',
    },
    getOperationIndex: {
      summary: 'Plain index of operations',
    },
    getHealth: {
      summary: 'Health check',
      description:
        '200 when every part of this node answers: the database and, on a node that runs it, ingest (nginx); ' +
        '503 otherwise, with `parts` naming what is down.',
    },
  },
);
