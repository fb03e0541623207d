//! The fast subset's lexer and parser, with minijinja's precedence.

use std::sync::Arc;

use super::{Arith, Cmp, Func, Node, Test};
use crate::value::Value;

// ---------------------------------------------------------------- lexer --

/// A token of the fast subset (also read by [`crate::expr::reads`]).
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Tok {
    Int(i64),
    Float(f64),
    Str(String),
    Ident(String),
    Op(&'static str),
}

/// The tokens of `src`, or `None` when it holds anything outside the fast
/// subset's lexicon (an escape in a string, a non-ASCII name, a brace).
pub(crate) fn lex(src: &str) -> Option<Vec<Tok>> {
    let b = src.as_bytes();
    let mut i = 0;
    let mut out = Vec::new();
    const OPS: [&str; 21] = [
        "==", "!=", "<=", ">=", "//", "**", "<", ">", "+", "-", "*", "/", "%", "~", "(", ")", "[",
        "]", ",", ".", "|",
    ];
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_whitespace() {
            i += 1;
        } else if c.is_ascii_digit() {
            let start = i;
            while i < b.len() && (b[i].is_ascii_digit() || b[i] == b'_') {
                i += 1;
            }
            let mut float = false;
            if i + 1 < b.len() && b[i] == b'.' && b[i + 1].is_ascii_digit() {
                float = true;
                i += 1;
                while i < b.len() && b[i].is_ascii_digit() {
                    i += 1;
                }
            }
            if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
                float = true;
                i += 1;
                if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
                    i += 1;
                }
                if i >= b.len() || !b[i].is_ascii_digit() {
                    return None;
                }
                while i < b.len() && b[i].is_ascii_digit() {
                    i += 1;
                }
            }
            let text: String = src[start..i].chars().filter(|c| *c != '_').collect();
            out.push(if float {
                Tok::Float(text.parse().ok()?)
            } else {
                Tok::Int(text.parse().ok()?)
            });
        } else if c == b'\'' || c == b'"' {
            let mut s = String::new();
            i += 1;
            loop {
                let ch = src[i..].chars().next()?;
                if ch as u32 == c as u32 {
                    i += 1;
                    break;
                }
                if ch == '\\' {
                    // Escapes are minijinja's business.
                    return None;
                }
                s.push(ch);
                i += ch.len_utf8();
            }
            out.push(Tok::Str(s));
        } else if c.is_ascii_alphabetic() || c == b'_' {
            let start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            out.push(Tok::Ident(src[start..i].to_string()));
        } else {
            let op = OPS.iter().find(|o| src[i..].starts_with(**o))?;
            out.push(Tok::Op(op));
            i += op.len();
        }
    }
    Some(out)
}

// --------------------------------------------------------------- parser --

pub(super) struct Parser {
    pub(super) toks: Vec<Tok>,
    pub(super) pos: usize,
}

impl Parser {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos)
    }
    fn is_op(&self, op: &str) -> bool {
        matches!(self.peek(), Some(Tok::Op(o)) if *o == op)
    }
    fn is_kw(&self, kw: &str) -> bool {
        matches!(self.peek(), Some(Tok::Ident(i)) if i == kw)
    }
    fn eat_op(&mut self, op: &str) -> bool {
        let yes = self.is_op(op);
        self.pos += yes as usize;
        yes
    }
    fn eat_kw(&mut self, kw: &str) -> bool {
        let yes = self.is_kw(kw);
        self.pos += yes as usize;
        yes
    }

    pub(super) fn expr(&mut self) -> Option<Node> {
        let value = self.or()?;
        if self.eat_kw("if") {
            let cond = self.or()?;
            let other = if self.eat_kw("else") {
                Some(Box::new(self.expr()?))
            } else {
                None
            };
            return Some(Node::If(Box::new(cond), Box::new(value), other));
        }
        Some(value)
    }
    fn or(&mut self) -> Option<Node> {
        let mut l = self.and()?;
        while self.eat_kw("or") {
            l = Node::Or(Box::new(l), Box::new(self.and()?));
        }
        Some(l)
    }
    fn and(&mut self) -> Option<Node> {
        let mut l = self.not()?;
        while self.eat_kw("and") {
            l = Node::And(Box::new(l), Box::new(self.not()?));
        }
        Some(l)
    }
    fn not(&mut self) -> Option<Node> {
        if self.eat_kw("not") {
            return Some(Node::Not(Box::new(self.not()?)));
        }
        self.compare()
    }
    // minijinja's precedence, loosest first: compare, `+ -`, `~`, `* /`,
    // unary minus (with attribute access), then tests and filters.
    fn compare(&mut self) -> Option<Node> {
        let l = self.math1()?;
        let op = match self.peek() {
            Some(Tok::Op("==")) => Some(Cmp::Eq),
            Some(Tok::Op("!=")) => Some(Cmp::Ne),
            Some(Tok::Op("<")) => Some(Cmp::Lt),
            Some(Tok::Op("<=")) => Some(Cmp::Le),
            Some(Tok::Op(">")) => Some(Cmp::Gt),
            Some(Tok::Op(">=")) => Some(Cmp::Ge),
            _ => None,
        };
        let node = if let Some(op) = op {
            self.pos += 1;
            Node::Compare(op, Box::new(l), Box::new(self.math1()?))
        } else if self.is_kw("in")
            || (self.is_kw("not")
                && matches!(self.toks.get(self.pos + 1), Some(Tok::Ident(i)) if i == "in"))
        {
            let negate = self.eat_kw("not");
            self.eat_kw("in");
            Node::In(Box::new(l), Box::new(self.math1()?), negate)
        } else {
            return Some(l);
        };
        // Chained comparisons are left to minijinja.
        let chained = matches!(
            self.peek(),
            Some(Tok::Op("==" | "!=" | "<" | "<=" | ">" | ">="))
        ) || self.is_kw("in");
        (!chained).then_some(node)
    }
    fn math1(&mut self) -> Option<Node> {
        let mut l = self.concat()?;
        loop {
            let op = if self.eat_op("+") {
                Arith::Add
            } else if self.eat_op("-") {
                Arith::Sub
            } else {
                return Some(l);
            };
            l = Node::Arith(op, Box::new(l), Box::new(self.concat()?));
        }
    }
    fn concat(&mut self) -> Option<Node> {
        let mut l = self.math2()?;
        while self.eat_op("~") {
            l = Node::Concat(Box::new(l), Box::new(self.math2()?));
        }
        Some(l)
    }
    fn math2(&mut self) -> Option<Node> {
        let mut l = self.unary()?;
        loop {
            if self.is_op("//") || self.is_op("%") || self.is_op("**") {
                return None;
            }
            let op = if self.eat_op("*") {
                Arith::Mul
            } else if self.eat_op("/") {
                Arith::Div
            } else {
                return Some(l);
            };
            l = Node::Arith(op, Box::new(l), Box::new(self.unary()?));
        }
    }
    fn unary(&mut self) -> Option<Node> {
        let mut node = self.unary_only()?;
        // Tests apply to the negated value (`-x is number`).
        loop {
            if self.eat_kw("is") {
                let negate = self.eat_kw("not");
                let Some(Tok::Ident(t)) = self.peek().cloned() else {
                    return None;
                };
                self.pos += 1;
                let test = match t.as_str() {
                    "defined" => Test::Defined,
                    "undefined" => Test::Undefined,
                    "none" => Test::None,
                    "number" => Test::Number,
                    "string" => Test::String,
                    "mapping" => Test::Mapping,
                    "boolean" => Test::Boolean,
                    "finite" => Test::Finite,
                    _ => return None,
                };
                node = Node::Test(Box::new(node), test, negate);
            } else if self.is_op("|") || self.is_op("(") {
                return None;
            } else {
                return Some(node);
            }
        }
    }
    fn unary_only(&mut self) -> Option<Node> {
        if self.eat_op("-") {
            return Some(Node::Neg(Box::new(self.unary_only()?)));
        }
        self.postfix()
    }
    fn postfix(&mut self) -> Option<Node> {
        let mut node = self.primary()?;
        loop {
            if self.eat_op(".") {
                let Some(Tok::Ident(name)) = self.peek().cloned() else {
                    return None;
                };
                self.pos += 1;
                node = Node::Attr(Box::new(node), Arc::from(name.as_str()));
            } else if self.eat_op("[") {
                let Some(Tok::Str(name)) = self.peek().cloned() else {
                    return None;
                };
                self.pos += 1;
                if !self.eat_op("]") {
                    return None;
                }
                node = Node::Attr(Box::new(node), Arc::from(name.as_str()));
            } else if self.is_op("|") || self.is_op("(") {
                return None;
            } else {
                return Some(node);
            }
        }
    }
    fn args(&mut self) -> Option<Vec<Node>> {
        let mut args = Vec::new();
        if self.eat_op(")") {
            return Some(args);
        }
        loop {
            args.push(self.expr()?);
            if self.eat_op(")") {
                return Some(args);
            }
            if !self.eat_op(",") {
                return None;
            }
        }
    }
    fn primary(&mut self) -> Option<Node> {
        let tok = self.peek()?.clone();
        self.pos += 1;
        Some(match tok {
            Tok::Int(i) => Node::Const(Value::from(i)),
            Tok::Float(f) => Node::Const(Value::from(f)),
            Tok::Str(s) => Node::Const(Value::from(s)),
            Tok::Ident(name) => match name.as_str() {
                "true" | "True" => Node::Const(Value::from(true)),
                "false" | "False" => Node::Const(Value::from(false)),
                "none" | "None" => Node::Const(Value::from(())),
                "max" | "min" | "abs" | "log" | "log10" | "log1p" | "sqrt" | "exp"
                    if self.eat_op("(") =>
                {
                    let f = match name.as_str() {
                        "max" => Func::Max,
                        "min" => Func::Min,
                        "abs" => Func::Abs,
                        "log" => Func::Log,
                        "log10" => Func::Log10,
                        "log1p" => Func::Log1p,
                        "sqrt" => Func::Sqrt,
                        _ => Func::Exp,
                    };
                    let args = self.args()?;
                    // max/min take two or more (n-ary, as Python's).
                    let arity_ok = if matches!(f, Func::Max | Func::Min) {
                        args.len() >= 2
                    } else {
                        args.len() == 1
                    };
                    if !arity_ok {
                        return None;
                    }
                    Node::Call(f, args)
                }
                // `_['execution time']`, `_.x`: a field of the row (the row
                // wins over a field named `_`); `_` used whole is minijinja's.
                "_" => {
                    let name = match (self.peek(), self.toks.get(self.pos + 1)) {
                        (Some(Tok::Op(".")), Some(Tok::Ident(name))) => name.clone(),
                        (Some(Tok::Op("[")), Some(Tok::Str(name)))
                            if self.toks.get(self.pos + 2) == Some(&Tok::Op("]")) =>
                        {
                            self.pos += 1;
                            name.clone()
                        }
                        _ => return None,
                    };
                    self.pos += 2;
                    Node::Var(Arc::from(name.as_str()))
                }
                // Globals and keywords are minijinja's.
                "n" | "v" | "meta" | "_source" | "loop" | "if" | "else" | "and" | "or" | "not"
                | "in" | "is" => return None,
                _ => Node::Var(Arc::from(name.as_str())),
            },
            Tok::Op("(") => {
                let e = self.expr()?;
                if !self.eat_op(")") {
                    return None;
                }
                e
            }
            Tok::Op("[") => {
                let mut items = Vec::new();
                if !self.eat_op("]") {
                    loop {
                        items.push(self.expr()?);
                        if self.eat_op("]") {
                            break;
                        }
                        if !self.eat_op(",") {
                            return None;
                        }
                    }
                }
                Node::List(items)
            }
            _ => return None,
        })
    }
}
