//! Words that name a value, and the kind of parameter that would hold it.
//!
//! A request says "20000 Japanese yen", "2 pounds of butter", "on June 1st" or "in 1800"; the
//! tool that serves it says `currency`, `unit`, `date` or `year`. Tool text names the kind of a
//! value and requests name the value itself, so the two rarely share a word. A query word on
//! these short lists also asks for its kind's word (weighted by `Params::value_weight`); so does
//! "when", which asks for a date.
//!
//! The kinds are parameter names common in tool catalogs (in the BFCL catalog, parameters named
//! `year` 40, `date` 29, `unit` 24, `currency` or `*_currency` 25, `religion` 8, `sport` 4).
//! Kinds whose values are also everyday adjectives did not help and are not listed: languages
//! and cuisines ("Italian", "Chinese") and colours.
//!
//! The lists leave out words that more often mean something else: "won" and "may" (verbs),
//! "real" (an adjective), "cup" (the World Cup); "pound" counts as a weight, not a currency.

/// Currency names and ISO codes, folded; sorted for binary search.
const CURRENCIES: [&str; 33] = [
    "aud", "bitcoin", "cad", "chf", "cny", "dollar", "dollars", "eur", "euro", "euros", "franc",
    "francs", "gbp", "hkd", "inr", "jpy", "krw", "mxn", "peso", "pesos", "rand", "reais",
    "renminbi", "ringgit", "ruble", "rubles", "rupee", "rupees", "sterling", "usd", "yen", "yuan",
    "zar",
];

/// Units of measure, folded; sorted for binary search.
const UNITS: [&str; 56] = [
    "celsius", "centimeter", "centimeters", "centimetre", "centimetres", "cm", "cups",
    "fahrenheit", "feet", "foot", "gallon", "gallons", "gram", "grams", "inch", "inches", "kelvin",
    "kg", "kilogram", "kilograms", "kilometer", "kilometers", "kilometre", "kilometres", "km", "lb",
    "lbs", "liter", "liters", "litre", "litres", "meter", "meters", "metre", "metres", "mile",
    "miles", "milliliter", "milliliters", "millimeter", "millimeters", "ml", "mm", "ounce",
    "ounces", "oz", "pint", "pints", "pound", "pounds", "quart", "quarts", "tablespoon",
    "tablespoons", "teaspoon", "teaspoons",
];

/// Month and weekday names and relative days, folded; sorted for binary search.
const DAYS: [&str; 34] = [
    "april", "aug", "august", "dec", "december", "feb", "february", "friday", "jan", "january",
    "jul", "july", "jun", "june", "march", "monday", "nov", "november", "oct", "october",
    "saturday", "sep", "sept", "september", "sunday", "thursday", "today", "tomorrow", "tonight",
    "tuesday", "wednesday", "weekend", "when", "yesterday",
];

/// Sports; sorted for binary search.
const SPORTS: [&str; 10] =
    ["baseball", "basketball", "cricket", "football", "golf", "hockey", "rugby", "soccer", "tennis", "volleyball"];

/// Religions; sorted for binary search.
const RELIGIONS: [&str; 9] =
    ["buddhism", "catholicism", "christianity", "hinduism", "islam", "judaism", "protestantism", "shinto", "sikhism"];

/// The word for the kind of value `word` (folded) names, if it names one.
pub fn kind_of(word: &str) -> Option<&'static str> {
    let lists: [(&[&str], &'static str); 5] =
        [(&CURRENCIES, "currency"), (&UNITS, "unit"), (&DAYS, "date"), (&SPORTS, "sport"), (&RELIGIONS, "religion")];
    if let Some((_, kind)) = lists.iter().find(|(list, _)| list.binary_search(&word).is_ok()) {
        Some(kind)
    } else if is_year(word) {
        Some("year")
    } else {
        None
    }
}

/// Four digits from 1000 to 2099: how requests write a year ("in 1800", "the 2022 season").
fn is_year(word: &str) -> bool {
    let bytes = word.as_bytes();
    bytes.len() == 4 && bytes.iter().all(u8::is_ascii_digit) && (bytes[0] == b'1' || bytes.starts_with(b"20"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_are_sorted_and_unique_so_binary_search_is_valid() {
        for list in [&CURRENCIES[..], &UNITS[..], &DAYS[..], &SPORTS[..], &RELIGIONS[..]] {
            assert!(list.windows(2).all(|pair| pair[0] < pair[1]), "{list:?}");
        }
    }

    #[test]
    fn value_words_name_their_kind() {
        for (word, kind) in [("yen", "currency"), ("usd", "currency"), ("ounces", "unit"), ("pounds", "unit"),
            ("km", "unit"), ("june", "date"), ("when", "date"), ("tomorrow", "date"), ("1800", "year"), ("2022", "year"),
            ("soccer", "sport"), ("buddhism", "religion")]
        {
            assert_eq!(kind_of(word), Some(kind), "{word}");
        }
    }

    #[test]
    fn other_words_and_numbers_name_nothing() {
        for word in ["won", "may", "weather", "2100", "999", "12345", "20", "dollarsx", ""] {
            assert_eq!(kind_of(word), None, "{word}");
        }
    }
}
