//! JSON values compared and described, for every layer that checks or reports one:
//! equality and order as JSON Schema defines them (`1` equals `1.0`), and a value in the
//! words of a message (`the string "3"`).

mod compare;
mod describe;

pub(crate) use compare::{
    cmp_number, cmp_number_as, exact_float, first_duplicate, is_multiple_of, json_eq,
};
pub(crate) use describe::{
    MAX_QUOTE, describe_value, list_values, push_decimal, short_json, short_str,
};
