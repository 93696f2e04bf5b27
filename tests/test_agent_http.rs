//! `Agent` and the HTTP providers against a real HTTP server on 127.0.0.1 (wiremock):
//! the exact requests each provider sends in each mode, and how the loop behaves on
//! what servers and models really do.

// Test types are built and compared whole; not every field is read on its own.
#![allow(dead_code)]

#[path = "agent_http/server.rs"]
mod server;

#[path = "agent_http/requests.rs"]
mod requests;

#[path = "agent_http/replies.rs"]
mod replies;

#[path = "agent_http/transport.rs"]
mod transport;

#[path = "agent_http/tools.rs"]
mod tools;

#[path = "agent_http/run_time.rs"]
mod run_time;

#[path = "agent_http/conversation.rs"]
mod conversation;

#[path = "agent_http/tool_choice.rs"]
mod tool_choice;

#[path = "agent_http/no_function_fits.rs"]
mod no_function_fits;

#[path = "agent_http/read_out.rs"]
mod read_out;

#[path = "agent_http/unasked_invalid.rs"]
mod unasked_invalid;

#[path = "agent_http/copied_example.rs"]
mod copied_example;

#[path = "agent_http/asking.rs"]
mod asking;

#[path = "agent_http/derived_calls.rs"]
mod derived_calls;

#[path = "agent_http/native_calls.rs"]
mod native_calls;

#[path = "agent_http/one_union.rs"]
mod one_union;
#[path = "agent_http/secrets.rs"]
mod secrets;

#[path = "agent_http/loop_record.rs"]
mod loop_record;

#[path = "agent_http/handler_names.rs"]
mod handler_names;

#[path = "agent_http/answer_beside_calls.rs"]
mod answer_beside_calls;

#[path = "agent_http/unasked.rs"]
mod unasked;

#[path = "agent_http/answer_kept.rs"]
mod answer_kept;

#[path = "agent_http/repair_forms.rs"]
mod repair_forms;

#[path = "agent_http/worked_out.rs"]
mod worked_out;

#[path = "agent_http/not_an_answer.rs"]
mod not_an_answer;

#[path = "agent_http/unstated_again.rs"]
mod unstated_again;

#[path = "agent_http/looped.rs"]
mod looped;

#[path = "agent_http/forced.rs"]
mod forced;

#[path = "agent_http/forced_json.rs"]
mod forced_json;

#[path = "agent_http/answer_tool.rs"]
mod answer_tool;

#[path = "agent_http/answer_in_prose.rs"]
mod answer_in_prose;

#[path = "agent_http/echoed_shape.rs"]
mod echoed_shape;
