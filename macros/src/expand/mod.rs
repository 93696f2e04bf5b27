//! Writes the impl: `describe` (the schema, as builder calls), `from_json` (the value,
//! from JSON the schema accepted) and `deserialize_strict` (the fast path, streaming).

mod build;
mod schema;
mod strict;

use proc_macro2::TokenStream;
use quote::quote;

use crate::ast::Container;
use crate::check;
use crate::ctxt::Ctxt;

pub fn derive(input: &syn::DeriveInput) -> TokenStream {
    match try_expand(input) {
        Ok(tokens) => tokens,
        Err(error) => {
            let errors = error.to_compile_error();
            let stub = stub(input);
            quote! { #errors #stub }
        }
    }
}

fn try_expand(input: &syn::DeriveInput) -> syn::Result<TokenStream> {
    let cx = Ctxt::default();
    let cont = Container::from_ast(&cx, input);
    if let Some(cont) = &cont {
        check::check(&cx, cont);
    }
    cx.check()?;
    let Some(cont) = cont else {
        return Ok(stub(input));
    };
    let describe = schema::describe(&cont);
    let from_json = build::from_json(&cont);
    let strict = strict::deserialize_strict(input, &cont);
    Ok(implement(input, &cont, describe, from_json, strict))
}

fn implement(
    input: &syn::DeriveInput,
    cont: &Container,
    describe: TokenStream,
    from_json: TokenStream,
    strict: Option<TokenStream>,
) -> TokenStream {
    let ident = &input.ident;
    let base = ident.to_string();
    let generics = with_bounds(input);
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
    let parameters = cont.generics.type_params().map(|p| {
        let p = &p.ident;
        quote!(<#p as ::toolschema::ToolSchema>::schema_name())
    });
    quote! {
        #[doc(hidden)]
        #[allow(non_upper_case_globals, unused_qualifications, clippy::all)]
        const _: () = {
            #[automatically_derived]
            impl #impl_generics ::toolschema::ToolSchema for #ident #ty_generics #where_clause {
                fn schema_name() -> ::std::borrow::Cow<'static, str> {
                    ::toolschema::__private::generic_name(#base, &[#(#parameters),*])
                }

                fn describe(generator: &mut ::toolschema::Generator) -> ::toolschema::Node {
                    #describe
                }

                fn from_json(value: ::toolschema::__private::Value) -> ::std::result::Result<Self, ::toolschema::Error> {
                    #from_json
                }

                #strict
            }
        };
    }
}

/// The input's generics, with `T: ToolSchema` for each type parameter.
fn with_bounds(input: &syn::DeriveInput) -> syn::Generics {
    let mut generics = input.generics.clone();
    for param in generics.type_params_mut() {
        param
            .bounds
            .push(syn::parse_quote!(::toolschema::ToolSchema));
    }
    generics
}

/// An impl that compiles, written beside the errors so they do not cascade.
fn stub(input: &syn::DeriveInput) -> TokenStream {
    let ident = &input.ident;
    let generics = with_bounds(input);
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
    quote! {
        const _: () = {
            impl #impl_generics ::toolschema::ToolSchema for #ident #ty_generics #where_clause {
                fn schema_name() -> ::std::borrow::Cow<'static, str> {
                    ::core::unimplemented!()
                }
                fn describe(_: &mut ::toolschema::Generator) -> ::toolschema::Node {
                    ::core::unimplemented!()
                }
                fn from_json(_: ::toolschema::__private::Value) -> ::std::result::Result<Self, ::toolschema::Error> {
                    ::core::unimplemented!()
                }
            }
        };
    }
}
