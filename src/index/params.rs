//! Ranking parameters, and why they have the values they have.
//!
//! Every value is chosen on the dev parts of the labelled sets `pnpm eval` reports and checked on
//! their held parts and on the sources kept whole (see `bench/data/README.md`); none is fitted to
//! a held part. `pnpm eval` prints what the shipped values rank, and each rule has an off switch
//! here whose cost on every set `node bench/ablation.mjs` prints (the table in `docs/search.md`):
//! a rule stays only while it earns its place on sources it was not tuned on. How each value was
//! found, with the figures of the values tried, is history, kept in `docs/model.md` ("How the
//! ranking parameters were chosen"); a document quotes a value as `` `name` (value) ``, which
//! `pnpm lint`'s docs gate compares with [`Params::default`].

use crate::input::projection::FIELDS;

#[derive(Debug, Clone, PartialEq)]
pub struct Params {
    /// Term-frequency saturation, above the usual 1.2: a word repeated across a tool's name,
    /// description and schema is real evidence of what the tool is about.
    pub k1: f64,
    /// Weight of one occurrence in each field, in [`crate::Field`] order: a name word
    /// counts three times a description word; property names count more than description words
    /// (they are what a request's arguments are called); schema prose counts least, because long
    /// schemas repeat generic words.
    pub weights: [f64; FIELDS],
    /// Length normalization per field (0: none, 1: full). Full for names and schema prose, so
    /// a short name or a terse schema is not outscored by a long one that merely contains more.
    pub b: [f64; FIELDS],
    /// Weight of a related word, an index word that begins a query word or begins with it
    /// ("calc" and "calculate", "discov" and "discover"): abbreviations in tool names and
    /// stemming's near misses. 0 turns it off.
    pub prefix_weight: f64,
    /// Weight of a word of a tool name whose initials a short query word spells ("pr": pull,
    /// request). 0 turns it off.
    pub acronym_weight: f64,
    /// Shortest word (in bytes) that takes part in prefix matching; shorter ones match too much.
    pub prefix_min: usize,
    /// Reciprocal-rank fusion constant for a query of several requests (0: no fusion). Small,
    /// so each request's best tool ranks near the top.
    pub fusion_k: f64,
    /// Weight of the whole query's ranking in the fusion (each single request's weighs 1).
    pub fusion_whole: f64,
    /// How deep each ranking taking part in a fusion is read.
    pub fusion_depth: usize,
    /// Share of the semantic similarity in a hybrid index's score (the lexical score has the
    /// rest); 0 turns the semantic signal off. Chosen with `contextual_share`, see there.
    pub semantic_weight: f64,
    /// `semantic_weight` for a query the glossary reads (one with Chinese in it), where the
    /// transformer read it. Its words match a tool through a dictionary's guesses at their
    /// meaning, at half a word's weight (see `gloss_weight`), or character by character, while
    /// the reader that gives its semantic part was trained for such queries (docs/model.md): the
    /// words prove less, and the meaning more, than a typed query's. It was chosen for the
    /// reader's reading, so a glossed query only the table reads keeps `semantic_weight`, and so
    /// does the choice of the transformer's candidates. Chosen with
    /// `glossed_contextual_candidates`, see there.
    pub glossed_semantic_weight: f64,
    /// For a compound query, the share of the whole query's similarity in a tool's similarity
    /// (the rest is its best similarity to one of the requests).
    pub semantic_whole: f64,
    /// Least table similarity (cosine) at which a tool no query word matches is a match: it joins
    /// the ranking, and its strength can load it. Below it (and below `contextual_floor`) a tool
    /// is no nearer the query than unrelated texts are to each other, so it only fills the places
    /// a short page leaves (see `Searcher::search_filled`) and never takes a match's. It belongs
    /// to the table it was set for: at it, the trained table lets in as few unrelated pairs (a
    /// request and another source's tool, no word shared) as 0.3 did with the untrained one,
    /// whose cosines run higher (docs/model.md, "The word table's training").
    pub semantic_floor: f64,
    /// Least transformer cosine at which a tool no query word matches is a match too, when the
    /// transformer compared it with the query (it is one of the candidates). The table's floor
    /// alone keeps out what only the trained encoder sees: a tool described in Chinese, asked for
    /// in English, or "book a table" for `reserve_restaurant`. Such a tool could only fill a short
    /// page, so a page of 5 and a page of 10 would disagree on their first five. Of the floors
    /// tried on the dev parts, this one lifts the bilingual dev parts and leaves the others as they
    /// are, and with none the Chinese held part loses; the ablation's row "only the table lets
    /// unmatched tools in" is what it is worth. It is also the least top of the scale the
    /// transformer's cosines are placed on (`search::hybrid::placed_under`): a best cosine under it
    /// is no full match. Infinity turns it off, in both roles.
    pub contextual_floor: f64,
    /// When the index has the transformer's vectors: its share of the semantic part (the word
    /// table has the rest), each placed on the query's own 0..=1 scale first. It is all of it, so
    /// where the transformer read the query the table's part of a score is 0 (as `explain` shows
    /// it); the table still picks the transformer's candidates, decides with it which unmatched
    /// tools count as matches (see `contextual_floor`), and is the whole semantic part for a query
    /// the transformer does not read. This and `semantic_weight` are the pair with the best mean
    /// R@5 over the seven labelled sets' dev parts among those where none of them fell: trained for
    /// tools, the transformer ranks better than the table wherever both read a query. The
    /// ablation's rows "semantic: half table, half transformer" and "semantic weight 0.5" each put
    /// one of them back at the even value the untrained encoder had.
    pub contextual_share: f64,
    /// How many tools the transformer compares with a query: the best by the lexical score and
    /// the table (see `search::hybrid`). It bounds what a search costs when the background worker
    /// has not yet made the tools' vectors (a search then makes its candidates' own, a pass each),
    /// and lets a search answer exactly as it will once the worker is done. The trained
    /// transformer finds tools the words and the table rank far down, which a smaller bound misses
    /// on the validation requests (`model/build/train/`); a larger one gains less there than two
    /// trainings of the encoder differ by, and no bound leaves a cold search unbounded. The
    /// ablation's row "transformer over every tool" is what the bound costs on every set.
    pub contextual_candidates: usize,
    /// `contextual_candidates` for a query the glossary reads. The words and the table choose
    /// the candidates from a gloss, a dictionary's first senses, which they read far worse than
    /// the reader trained for it: the tool a Chinese request wants is often below their hundredth
    /// and the reader's first. This bound and `glossed_semantic_weight` are the pair that ranks
    /// best on the Chinese dev parts the models never trained on (the written and multi-step
    /// requests) where none of them falls, a larger bound gaining less than 0.005 a step of 50; a
    /// cold search of such a query makes at most this many vectors.
    pub glossed_contextual_candidates: usize,
    /// Most of a name's agreement with the query (see `search::agreement`) adds to a tool's score
    /// in a hybrid index: among the leaders that share the query's object, the member whose other
    /// name words are nearest the rest of the query gets it all, divided by the square of the
    /// query's words the family does not share; 0 turns it off. In the built-in catalog the
    /// action is all that tells `create_pull_request` from the nine other pull-request tools for
    /// "open a pull request" ("create" to "open" is a cosine of 0.17 in the table); the weight is
    /// the least that ranks it first (`src/tests/contextual.rs` holds it there), and it moves no
    /// `pnpm eval` figure. The division by the square of the words left keeps the rule off long
    /// requests, where a plain division, or none, cost the dev parts recall.
    pub agreement_weight: f64,
    /// How many of the best-scoring tools the agreement looks at for a family: enough for a
    /// family as large as the GitHub server's ten pull-request tools.
    pub agreement_leaders: usize,
    /// In a hybrid index with the glossary, the weight of a gloss word (see `gloss`): each content
    /// word of a query's CJK text adds the terms of its English gloss to the query's terms at this
    /// weight, beside the text's own pieces (which weigh 1), and the semantic stage reads the query
    /// with its CJK text in English; 0 turns both off. Half a query word's weight: a gloss is a
    /// dictionary's guess at a word's meaning, two senses long. The bilingual set's Chinese dev
    /// part ranks alike at the weights around it and loses at those far from it; the ablation's
    /// row "no gloss" is what the gloss is worth.
    pub gloss_weight: f64,
    /// How many CJK characters in a row make a phrase that, held by one tool alone, puts that tool
    /// first in a hybrid ranking (see `search::phrase`); below 2 turns it off for CJK text. Four,
    /// three of the analyzer's overlapping pieces ("抖音热榜" for a tool described as "获取抖音热榜"):
    /// the length of the literal-phrase check's quotes, as three would be two pieces, which common
    /// words share (`docs/model.md`, "How the ranking parameters were chosen").
    pub phrase_chars: usize,
    /// How many words in a row (stop words aside, each stemmed) make such a phrase; 0 turns it off
    /// for words. Four: of the lengths tried on the dev parts, the one that gained R@1 most and put
    /// no wrong tool first (`docs/model.md`, "How the ranking parameters were chosen").
    pub phrase_words: usize,
    /// The least share of a query's terms a tool's phrases must cover for the query to quote it:
    /// a query that is mostly a phrase of one tool names that tool, while a sentence may hold
    /// four characters of some tool's description by chance ("的经纬度", "哪个页面"). Half: the
    /// least share, in steps of 0.1, at which no dev part falls at R@1 or R@5; the literal-phrase
    /// check stays whole, its quotes being whole queries (`docs/model.md`, "How the ranking
    /// parameters were chosen").
    pub phrase_share: f64,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            k1: 1.5,
            weights: [3.0, 1.0, 1.5, 0.5],
            b: [1.0, 0.75, 0.5, 1.0],
            prefix_weight: 0.3,
            prefix_min: 4,
            acronym_weight: 0.3,
            fusion_k: 1.0,
            fusion_whole: 1.5,
            fusion_depth: 20,
            semantic_weight: 0.6,
            glossed_semantic_weight: 0.7,
            semantic_whole: 0.5,
            semantic_floor: 0.17,
            contextual_floor: 0.25,
            contextual_share: 1.0,
            contextual_candidates: 100,
            glossed_contextual_candidates: 150,
            agreement_weight: 0.15,
            agreement_leaders: 10,
            gloss_weight: 0.5,
            phrase_chars: 4,
            phrase_words: 4,
            phrase_share: 0.5,
        }
    }
}
