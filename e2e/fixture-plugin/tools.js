// Everyday tools with realistic names and descriptions, so a natural-language
// search has to find the right one by meaning, not by its name. Their bodies
// are canned: what the E2E proves is that DSH really ran them, which each one
// records (see `record` in index.js) and shows through the returned receipt.

const text = (value) => [{ type: 'text', text: JSON.stringify(value) }]

/** @param {(tool: string, args: unknown) => string} record  returns the receipt */
export function fixtureTools(record) {
  return [
    {
      name: 'get_weather_forecast',
      description: 'Get the weather forecast for a city: daily high and low temperatures, '
        + 'chance of rain and sky conditions for the next few days.',
      parameters: {
        type: 'object',
        properties: {
          city: { type: 'string', description: 'City name, e.g. "Paris" or "Osaka".' },
          days: { type: 'integer', description: 'How many days ahead, 1 to 7 (default 3).' },
        },
        required: ['city'],
        additionalProperties: false,
      },
      output: {
        schema: {
          type: 'object',
          properties: {
            city: { type: 'string' },
            forecast: { type: 'string' },
            receipt: { type: 'string' },
          },
          required: ['city', 'forecast', 'receipt'],
          additionalProperties: false,
        },
        render: (_args, value) => text(value),
      },
      async execute(args) {
        const receipt = record('get_weather_forecast', args)
        return { city: args.city, forecast: 'Mild and dry, 18°C by day and 9°C at night.', receipt }
      },
    },
    {
      name: 'convert_currency',
      description: 'Convert an amount of money from one currency to another at the latest exchange rate.',
      parameters: {
        type: 'object',
        properties: {
          amount: { type: 'number', description: 'The amount to convert.' },
          from: { type: 'string', description: 'ISO 4217 code of the source currency, e.g. "EUR".' },
          to: { type: 'string', description: 'ISO 4217 code of the target currency, e.g. "JPY".' },
        },
        required: ['amount', 'from', 'to'],
        additionalProperties: false,
      },
      output: {
        schema: {
          type: 'object',
          properties: { converted: { type: 'number' }, receipt: { type: 'string' } },
          required: ['converted', 'receipt'],
          additionalProperties: false,
        },
        render: (_args, value) => text(value),
      },
      async execute(args) {
        const receipt = record('convert_currency', args)
        return { converted: args.amount * 1.5, receipt }
      },
    },
    {
      name: 'create_issue',
      description: "Open a new ticket in the project's issue tracker with a title, a body and optional labels.",
      parameters: {
        type: 'object',
        properties: {
          title: { type: 'string', description: 'One-line summary of the problem.' },
          body: { type: 'string', description: 'Markdown details: steps to reproduce, expected and actual behavior.' },
          labels: { type: 'array', items: { type: 'string' }, description: 'Labels such as "bug" or "docs".' },
        },
        required: ['title'],
        additionalProperties: false,
      },
      output: {
        schema: {
          type: 'object',
          properties: { number: { type: 'integer' }, receipt: { type: 'string' } },
          required: ['number', 'receipt'],
          additionalProperties: false,
        },
        render: (_args, value) => text(value),
      },
      async execute(args) {
        const receipt = record('create_issue', args)
        return { number: 42, receipt }
      },
    },
    {
      name: 'search_issues',
      description: "Find existing tickets in the project's issue tracker by keywords, state or label.",
      parameters: {
        type: 'object',
        properties: {
          text: { type: 'string', description: 'Keywords matched against titles and bodies.' },
          state: { type: 'string', enum: ['open', 'closed', 'all'], description: 'Which tickets to include.' },
        },
        required: ['text'],
        additionalProperties: false,
      },
      output: {
        schema: {
          type: 'object',
          properties: {
            numbers: { type: 'array', items: { type: 'integer' } },
            receipt: { type: 'string' },
          },
          required: ['numbers', 'receipt'],
          additionalProperties: false,
        },
        render: (_args, value) => text(value),
      },
      async execute(args) {
        const receipt = record('search_issues', args)
        return { numbers: [7, 42], receipt }
      },
    },
    {
      name: 'reserve_meeting_room',
      description: 'Book a meeting room in the office calendar for a time slot and a number of attendees.',
      parameters: {
        type: 'object',
        properties: {
          start: { type: 'string', description: 'ISO 8601 start time.' },
          minutes: { type: 'integer', description: 'Length of the booking in minutes.' },
          attendees: { type: 'integer', description: 'How many people will attend.' },
        },
        required: ['start', 'minutes'],
        additionalProperties: false,
      },
      output: {
        schema: {
          type: 'object',
          properties: { room: { type: 'string' }, receipt: { type: 'string' } },
          required: ['room', 'receipt'],
          additionalProperties: false,
        },
        render: (_args, value) => text(value),
      },
      async execute(args) {
        const receipt = record('reserve_meeting_room', args)
        return { room: 'Aurora', receipt }
      },
    },
  ]
}
