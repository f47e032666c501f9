// The retrieval section of the benchmark report: every labelled set of `pnpm eval`, both
// rankings, the default first, rendered from the recorded eval figures alone.
import { literalRows, RANKINGS, tableRows } from '../lib/eval-figures.mjs'
import { int } from './format.mjs'

const fixed3 = (/** @type {number} */ n) => n.toFixed(3)
const signed3 = (/** @type {number} */ n) => `${n > 0 ? '+' : n < 0 ? '-' : '±'}${Math.abs(n).toFixed(3)}`

const ABOUT = { lexical: 'BM25F alone', hybrid: 'BM25F fused with the semantic model' }

/**
 * What the bilingual rows are, with their counts from the recorded figures (nothing when the
 * figures have no bilingual set).
 * @param {import('../lib/eval-figures.mjs').SetFigures[]} sets
 */
function bilingualSentence(sets) {
  const english = sets.find((set) => set.id === 'bilingual-en')
  const chinese = sets.find((set) => set.id === 'bilingual-zh')
  if (english === undefined || chinese === undefined) return ''
  return `The bilingual set is this project's own ([bench/data/bilingual](../bench/data/bilingual/README.md)): ${int(english.lexical.all.requests)} `
    + 'requests written by hand, each in English and in Chinese, ranked over one catalog of DSH\'s tools, five MCP servers\' '
    + `(two of them described in Chinese) and the four non-BFCL sources' (${int(english.tools)} tools); its English and Chinese halves `
    + 'are reported apart, and the two languages of a request always fall in the same part. '
}

/**
 * What the written MCP rows are (nothing when the figures have none).
 * @param {import('../lib/eval-figures.mjs').SetFigures[]} sets
 */
function writtenSentence(sets) {
  const english = sets.find((set) => set.id === 'written-en')
  if (english === undefined) return ''
  return `The MCP servers' rows are requests written for this project's training ([model/build/train/written](../model/build/train/written/README.md)), for the tools of the recorded servers whose requests never train the transformer (its validation), ranked over every recorded server's tools (${int(english.tools)}); their part is dev only. `
}

/**
 * What the multi-step rows are and how they are scored (nothing when the figures have none).
 * @param {import('../lib/eval-figures.mjs').SetFigures[]} sets
 */
function multistepSentence(sets) {
  const english = sets.find((set) => set.id === 'multistep-en')
  if (english === undefined) return ''
  return `The multi-step rows are this project's requests that each ask for two to four steps ([bench/data/multistep](../bench/data/multistep/README.md)), ${int(english.lexical.all.requests)} `
    + 'in each language over the bilingual set\'s catalog, never trained on, and they are scored by steps: R@k there is the share of a '
    + 'request\'s steps found in the first k results, a step found when any of the tools that serve it is there (a step the catalog '
    + 'serves twice names both), NDCG@10 gains once per step, and **Hit@5** (after the tables) is the share of requests whose first '
    + 'step is found in the first 5. '
}

/**
 * Hit@5 of the sets scored by steps, the rankings side by side in the tables' order, the default
 * first (nothing when no set is scored by steps).
 * @param {import('../lib/eval-figures.mjs').SetFigures[]} sets
 * @param {import('../lib/eval-figures.mjs').Ranking} defaultRanking
 * @param {import('../lib/eval-figures.mjs').Ranking[]} order
 * @returns {string[]} Markdown lines
 */
function firstStepLines(sets, defaultRanking, order) {
  const scored = sets.filter((set) => set[defaultRanking].all.hit5 !== undefined)
  if (scored.length === 0) return []
  const lines = [
    '**Hit@5** of the sets scored by steps, the share of requests whose first step is found in the first 5:',
    '',
    `| Set | Part | ${order.map((ranking) => `${ranking} Hit@5`).join(' | ')} |`,
    `| --- | --- | ${order.map(() => '---:').join(' | ')} |`,
  ]
  for (const { set, part, first } of tableRows(scored, defaultRanking)) {
    lines.push(`${first ? `| ${set.label} ` : '| '}| ${part} | ${order.map((ranking) => fixed3(set[ranking][part]?.hit5 ?? Number.NaN)).join(' | ')} |`)
  }
  return [...lines, '']
}

/**
 * What the cross-lingual rows are (nothing when the figures have none).
 * @param {import('../lib/eval-figures.mjs').SetFigures[]} sets
 */
function crossLingualSentence(sets) {
  if (!sets.some((set) => set.id.endsWith('-over-en'))) return ''
  return 'A row "..., tools described in English" holds the Chinese requests of the set above it whose every relevant tool is described without a Chinese character: '
    + 'a request in one language for tools described in another, which a model that reads only English bridges through the glossary alone. '
}

/** @param {import('../lib/eval-figures.mjs').EvalResults} quality @returns {string[]} Markdown lines */
export function evalLines({ defaultRanking, sets }) {
  const other = RANKINGS.find((ranking) => ranking !== defaultRanking)
  const order = other === undefined ? [defaultRanking] : [defaultRanking, other]
  const lines = [
    '## Retrieval quality (`pnpm eval`)',
    '',
    'Real requests with labelled answers from six public sources and our own bilingual set and MCP requests, each searched over its own catalog '
      + '([bench/data](../bench/data/README.md) says where each comes from, its licence and how it is rebuilt), and the union: '
      + 'the requests of the four non-BFCL sources over one catalog of their tools among BFCL\'s, DSH\'s own and three '
      + `MCP servers' (${int(sets.find((set) => set.id === 'union')?.tools ?? 0)} tools). `
      + '**dev** is the part ranking choices may be tuned on; **held** is a fixed 30% of requests (a hash of the request id) '
      + 'no ranking choice looks at; **all** is a source kept whole: BFCL live checks the BFCL dev set, AgentDojo is the '
      + 'source held out entirely (in the union its requests count as held). '
      + bilingualSentence(sets)
      + multistepSentence(sets)
      + writtenSentence(sets)
      + crossLingualSentence(sets)
      + 'Only the dev parts train the semantic model\'s transformer (BFCL dev, tau2-bench, ToolTalk, tau2 banking and the bilingual set, and the written MCP requests of the other servers; [model.md](model.md#how-the-transformer-was-trained)); '
      + 'no held part and neither source kept whole does. '
      + 'R@k is the share of a request\'s relevant tools in the first k results, NDCG@10 has binary gain; exact name is '
      + 'Recall@1 of every catalog tool searched by its own name. '
      + '**Loaded** is the tools a `tool_search` for the request loads, per search, under the plugin\'s rule at its default '
      + 'limit of 5 (nothing below the weak-match floor, then only the leaders: [search.md](search.md#the-leader-cut)); '
      + '**relevant** is the share of the loaded tools that are relevant.',
    '',
  ]
  for (const ranking of order) {
    const compare = ranking === defaultRanking ? other : undefined
    lines.push(
      `**${ranking}** (${ABOUT[ranking]}${ranking === defaultRanking ? '; the default when the model package is installed' : ''}):`,
      '',
      `| Set | Tools | Part | Requests | R@1 | R@5 | Loaded | Relevant | R@10 | NDCG@10 | Exact name |${compare === undefined ? '' : ` R@5 vs ${compare} |`}`,
      `| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |${compare === undefined ? '' : ' ---: |'}`,
    )
    for (const { set, part, metrics, first } of tableRows(sets, ranking)) {
      const head = first ? `| ${set.label} | ${int(set.tools)} ` : '| | '
      const against = compare === undefined ? '' : ` ${signed3(metrics.r5 - (set[compare][part]?.r5 ?? Number.NaN))} |`
      lines.push(`${head}| ${part} | ${int(metrics.requests)} | ${fixed3(metrics.r1)} | ${fixed3(metrics.r5)} `
        + `| ${metrics.loadedPerSearch.toFixed(2)} | ${fixed3(metrics.relevantOfLoaded)} | ${fixed3(metrics.r10)} `
        + `| ${fixed3(metrics.ndcg10)} | ${first ? fixed3(set[ranking].exactNameR1) : ''} |${against}`)
    }
    lines.push('')
  }
  return [...lines, ...firstStepLines(sets, defaultRanking, order), ...literalLines(sets)]
}

/**
 * The literal-phrase check's table (nothing when the figures have none).
 * @param {import('../lib/eval-figures.mjs').SetFigures[]} sets
 */
function literalLines(sets) {
  const rows = literalRows(sets)
  if (rows.length === 0) return []
  const lines = [
    '**Literal phrases** ([bench/lib/literal-sets.mjs](../bench/lib/literal-sets.mjs)): for every tool whose description holds a run of four or more '
      + 'Chinese characters, the first four of them in a row that no other tool of the catalog holds, searched for alone; R@1 is the share of '
      + 'those tools ranked first. Each server over its own catalog, those pooled, and all of them among every recorded server\'s tools and DSH\'s. '
      + 'A tool\'s part is a hash of its server and name.',
    '',
    '| Catalog | Tools | Part | Asked | R@1 hybrid | R@1 lexical | R@5 hybrid |',
    '| --- | ---: | --- | ---: | ---: | ---: | ---: |',
  ]
  for (const { set, part, hybrid, lexical, first } of rows) {
    const head = first ? `| ${set.label} | ${int(set.tools)} ` : '| | '
    lines.push(`${head}| ${part} | ${int(hybrid.requests)} | ${fixed3(hybrid.r1)} | ${fixed3(lexical.r1)} | ${fixed3(hybrid.r5)} |`)
  }
  lines.push('')
  return lines
}
