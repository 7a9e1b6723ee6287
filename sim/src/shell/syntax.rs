//! The shell's grammar: words with quoting and `$?`, redirections, pipelines and lists joined
//! by `;`, newlines, `&&` and `||`, parsed as `/system/bin/sh` reads them. Pure text to data.

/// One piece of a word: literal text or the last exit status (`$?`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WordPart {
    Text(String),
    Status,
}

/// A word before expansion.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Word(pub Vec<WordPart>);

impl Word {
    fn push_char(&mut self, c: char) {
        if let Some(WordPart::Text(t)) = self.0.last_mut() {
            t.push(c);
        } else {
            self.0.push(WordPart::Text(c.to_string()));
        }
    }

    /// The word with `$?` replaced by `status`.
    pub fn expand(&self, status: i32) -> String {
        self.0
            .iter()
            .map(|p| match p {
                WordPart::Text(t) => t.clone(),
                WordPart::Status => status.to_string(),
            })
            .collect()
    }
}

/// A redirection of one file descriptor.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Redirect {
    /// `[fd]> path` or `[fd]>> path`.
    Out { fd: u8, path: Word, append: bool },
    /// `< path`.
    In { path: Word },
    /// `[fd]>&to`.
    Dup { fd: u8, to: u8 },
}

/// A command name with its arguments and redirections.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SimpleCommand {
    pub words: Vec<Word>,
    pub redirects: Vec<Redirect>,
}

/// Commands joined by `|`.
pub type Pipeline = Vec<SimpleCommand>;

/// How a pipeline joins the previous one in a list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Connector {
    /// `;`, newline or `&` (start of a list item).
    Then,
    And,
    Or,
}

/// A parsed script: pipelines in order, each with its connector.
pub type Script = Vec<(Connector, Pipeline)>;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    /// The text ends inside a quote or after `|`, `&&`, `||` or a trailing backslash.
    #[error("unexpected end of input")]
    Incomplete,
    #[error("syntax error: '{0}' unexpected")]
    Unexpected(String),
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Token {
    Word(Word),
    Separator,
    And,
    Or,
    Pipe,
    RedirOut { fd: u8, append: bool },
    RedirIn,
    Dup { fd: u8, to: u8 },
}

fn tokenize(text: &str) -> Result<Vec<Token>, ParseError> {
    let mut tokens = Vec::new();
    let mut chars = text.chars().peekable();
    let mut word: Option<Word> = None;
    macro_rules! end_word {
        () => {
            if let Some(w) = word.take() {
                tokens.push(Token::Word(w));
            }
        };
    }
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' | '\r' => end_word!(),
            '\n' | ';' => {
                end_word!();
                tokens.push(Token::Separator);
            }
            '#' if word.is_none() => {
                while chars.peek().is_some_and(|&c| c != '\n') {
                    chars.next();
                }
            }
            '&' | '|' => {
                end_word!();
                // Doubled, `&&` and `||` chain commands; alone, `&` ends one and `|` pipes.
                let (double, single) = if c == '&' {
                    (Token::And, Token::Separator)
                } else {
                    (Token::Or, Token::Pipe)
                };
                if chars.next_if_eq(&c).is_some() {
                    tokens.push(double);
                } else {
                    tokens.push(single);
                }
            }
            '>' | '<' => {
                let fd = take_fd(&mut word);
                end_word!();
                tokens.push(redirection(c, fd, &mut chars)?);
            }
            '\'' => single_quoted(quoted_word(&mut word), &mut chars)?,
            '"' => double_quoted(quoted_word(&mut word), &mut chars)?,
            '\\' => match chars.next() {
                Some('\n') => {}
                Some(c) => word.get_or_insert_with(Word::default).push_char(c),
                None => return Err(ParseError::Incomplete),
            },
            '$' if chars.peek() == Some(&'?') => {
                chars.next();
                word.get_or_insert_with(Word::default)
                    .0
                    .push(WordPart::Status);
            }
            c => word.get_or_insert_with(Word::default).push_char(c),
        }
    }
    end_word!();
    Ok(tokens)
}

/// The characters of the text being split into tokens.
type Chars<'a> = std::iter::Peekable<std::str::Chars<'a>>;

/// A word made only of one digit right before a redirection is its fd (`2>`): taken from the
/// word being built, which it then ends.
fn take_fd(word: &mut Option<Word>) -> Option<u8> {
    let Some(Word(parts)) = word else {
        return None;
    };
    let fd = match parts.as_slice() {
        [WordPart::Text(t)] if t.len() == 1 && t.as_bytes()[0].is_ascii_digit() => {
            t.as_bytes()[0] - b'0'
        }
        _ => return None,
    };
    *word = None;
    Some(fd)
}

/// The redirection that `c` (`<` or `>`) starts: `<`, `>`, `>>` or `>&N`, from `fd` (1 when no
/// word named one).
fn redirection(c: char, fd: Option<u8>, chars: &mut Chars) -> Result<Token, ParseError> {
    if c == '<' {
        return Ok(Token::RedirIn);
    }
    let fd = fd.unwrap_or(1);
    if chars.peek() == Some(&'>') {
        chars.next();
        Ok(Token::RedirOut { fd, append: true })
    } else if chars.peek() == Some(&'&') {
        chars.next();
        let to = chars
            .next()
            .and_then(|d| d.to_digit(10))
            .ok_or_else(|| ParseError::Unexpected(">&".into()))?;
        Ok(Token::Dup { fd, to: to as u8 })
    } else {
        Ok(Token::RedirOut { fd, append: false })
    }
}

/// The word a quote starts or continues: a quote makes a word even when nothing is in it (`''`).
fn quoted_word(word: &mut Option<Word>) -> &mut Word {
    let w = word.get_or_insert_with(Word::default);
    if w.0.is_empty() {
        w.0.push(WordPart::Text(String::new()));
    }
    w
}

/// The rest of a single-quoted string, its opening quote read: every character as it is.
fn single_quoted(w: &mut Word, chars: &mut Chars) -> Result<(), ParseError> {
    loop {
        match chars.next() {
            Some('\'') => return Ok(()),
            Some(c) => w.push_char(c),
            None => return Err(ParseError::Incomplete),
        }
    }
}

/// The rest of a double-quoted string, its opening quote read: backslash escapes only before
/// `" \ $` and a backquote, a backslash-newline dropped, and `$?` the last status.
fn double_quoted(w: &mut Word, chars: &mut Chars) -> Result<(), ParseError> {
    loop {
        match chars.next() {
            Some('"') => return Ok(()),
            Some('\\') => match chars.next() {
                Some(c @ ('"' | '\\' | '$' | '`')) => w.push_char(c),
                Some('\n') => {}
                Some(c) => {
                    w.push_char('\\');
                    w.push_char(c);
                }
                None => return Err(ParseError::Incomplete),
            },
            Some('$') if chars.peek() == Some(&'?') => {
                chars.next();
                w.0.push(WordPart::Status);
            }
            Some(c) => w.push_char(c),
            None => return Err(ParseError::Incomplete),
        }
    }
}

/// Parses shell text into a list of pipelines.
pub fn parse(text: &str) -> Result<Script, ParseError> {
    let tokens = tokenize(text)?;
    let mut script = Script::new();
    let mut pipeline = Pipeline::new();
    let mut command = SimpleCommand::default();
    let mut connector = Connector::Then;
    let mut iter = tokens.into_iter().peekable();
    // Whether the text so far ends with an operator that needs something after it.
    let mut dangling = false;
    while let Some(tok) = iter.next() {
        match tok {
            Token::Word(w) => {
                command.words.push(w);
                dangling = false;
            }
            Token::RedirOut { fd, append } => match iter.next() {
                Some(Token::Word(path)) => {
                    command.redirects.push(Redirect::Out { fd, path, append })
                }
                None => return Err(ParseError::Unexpected("newline".into())),
                Some(_) => return Err(ParseError::Unexpected(">".into())),
            },
            Token::RedirIn => match iter.next() {
                Some(Token::Word(path)) => command.redirects.push(Redirect::In { path }),
                None => return Err(ParseError::Unexpected("newline".into())),
                Some(_) => return Err(ParseError::Unexpected("<".into())),
            },
            Token::Dup { fd, to } => command.redirects.push(Redirect::Dup { fd, to }),
            Token::Pipe => {
                if command.words.is_empty() {
                    return Err(ParseError::Unexpected("|".into()));
                }
                pipeline.push(std::mem::take(&mut command));
                dangling = true;
            }
            Token::Separator | Token::And | Token::Or => {
                if command.words.is_empty() && command.redirects.is_empty() {
                    if dangling || !matches!(tok, Token::Separator) {
                        return Err(ParseError::Unexpected(
                            match tok {
                                Token::And => "&&",
                                Token::Or => "||",
                                _ => ";",
                            }
                            .into(),
                        ));
                    }
                    continue;
                }
                pipeline.push(std::mem::take(&mut command));
                script.push((connector, std::mem::take(&mut pipeline)));
                connector = match tok {
                    Token::And => Connector::And,
                    Token::Or => Connector::Or,
                    _ => Connector::Then,
                };
                dangling = !matches!(tok, Token::Separator);
            }
        }
    }
    if !command.words.is_empty() || !command.redirects.is_empty() {
        pipeline.push(command);
        script.push((connector, pipeline));
    } else if dangling {
        return Err(ParseError::Incomplete);
    }
    Ok(script)
}

/// Commands that may read stdin (or start an interactive shell).
const STDIN_READERS: &[&str] = &["cat", "dd", "sh", "app_process"];

/// `NAME=value` with a valid variable name: an assignment, not a command.
pub(super) fn is_assignment(word: &str) -> bool {
    word.split_once('=').is_some_and(|(name, _)| {
        name.chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    })
}

/// Whether `text` can run without any input from the host: it parses, and no command in it may
/// read stdin. Such commands can be answered in one go.
pub fn runs_without_stdin(text: &str) -> bool {
    let Ok(script) = parse(text) else {
        return false;
    };
    !text.trim().is_empty()
        && script.iter().flat_map(|(_, p)| p).all(|command| {
            // The command name is the first word that is not a `NAME=value` assignment.
            let name = command
                .words
                .iter()
                .find(|w| !matches!(w.0.as_slice(), [WordPart::Text(t)] if is_assignment(t)));
            match name.map(|w| w.0.as_slice()) {
                Some([WordPart::Text(name)]) => {
                    let name = name.rsplit('/').next().unwrap_or(name);
                    !STDIN_READERS.contains(&name)
                }
                None => true,
                Some(_) => false,
            }
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(script: &Script) -> Vec<Vec<Vec<String>>> {
        script
            .iter()
            .map(|(_, p)| {
                p.iter()
                    .map(|c| c.words.iter().map(|w| w.expand(7)).collect())
                    .collect()
            })
            .collect()
    }

    #[test]
    fn quoting_follows_sh_rules() {
        let s = parse(r#"echo 'a b' "c $? d" e\ f 'it''s' "q\"x""#).unwrap();
        assert_eq!(
            words(&s),
            vec![vec![vec!["echo", "a b", "c 7 d", "e f", "its", "q\"x"]]]
        );
        assert_eq!(words(&parse("exec-out '-p'").unwrap())[0][0][1], "-p");
        assert_eq!(words(&parse("echo ''").unwrap())[0][0], vec!["echo", ""]);
    }

    #[test]
    fn lists_split_on_semicolons_newlines_and_logic_operators() {
        let s = parse("input tap 1 2; echo __rc=$?\ntrue && echo ok || echo no # comment").unwrap();
        let connectors: Vec<Connector> = s.iter().map(|(c, _)| *c).collect();
        assert_eq!(
            connectors,
            vec![
                Connector::Then,
                Connector::Then,
                Connector::Then,
                Connector::And,
                Connector::Or
            ]
        );
        assert_eq!(words(&s)[1][0], vec!["echo", "__rc=7"]);
        assert_eq!(words(&s)[4][0], vec!["echo", "no"]);
    }

    #[test]
    fn pipes_and_redirections_are_parsed() {
        let s = parse("dumpsys window displays | grep mCurrentRotation 2>&1").unwrap();
        assert_eq!(s[0].1.len(), 2);
        assert_eq!(s[0].1[1].redirects, vec![Redirect::Dup { fd: 2, to: 1 }]);
        let s = parse("cat > /dev/input/event2").unwrap();
        assert_eq!(
            s[0].1[0].redirects,
            vec![Redirect::Out {
                fd: 1,
                path: Word(vec![WordPart::Text("/dev/input/event2".into())]),
                append: false
            }]
        );
        let s = parse("foo 2>/dev/null").unwrap();
        assert!(matches!(
            &s[0].1[0].redirects[0],
            Redirect::Out { fd: 2, .. }
        ));
    }

    #[test]
    fn unfinished_text_is_incomplete_and_stray_operators_are_errors() {
        assert_eq!(parse("echo 'abc"), Err(ParseError::Incomplete));
        assert_eq!(parse("echo a |"), Err(ParseError::Incomplete));
        assert_eq!(parse("echo a &&"), Err(ParseError::Incomplete));
        assert!(matches!(parse("| echo"), Err(ParseError::Unexpected(_))));
        assert!(matches!(parse("echo >"), Err(ParseError::Unexpected(_))));
        assert_eq!(parse(" ;; \n").unwrap(), Script::new());
    }
}
