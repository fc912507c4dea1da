use std::io;
use std::net::{IpAddr, SocketAddr};

use super::*;

fn ip(text: &str) -> IpAddr {
    text.parse().unwrap()
}

#[test]
fn loopback_addresses() {
    for text in ["127.0.0.1", "127.255.255.254", "::1", "::ffff:127.0.0.1", "::ffff:127.9.9.9"] {
        assert!(is_loopback(ip(text)), "{text} is loopback");
    }
}

#[test]
fn addresses_that_are_not_loopback() {
    // `Ipv6Addr::to_ipv4` would read `::1` as 0.0.0.1 and `::127.0.0.1` (IPv4-compatible,
    // deprecated) as 127.0.0.1; only the mapped form counts.
    for text in
        ["0.0.0.0", "::", "8.8.8.8", "::ffff:8.8.8.8", "10.0.0.1", "::127.0.0.1", "::2", "fe80::1"]
    {
        assert!(!is_loopback(ip(text)), "{text} is not loopback");
    }
}

#[test]
fn classify_reads_standard_literals_only() {
    assert_eq!(classify("127.0.0.1").unwrap(), Host::Ip(ip("127.0.0.1")));
    assert_eq!(classify("[::1]").unwrap(), Host::Ip(ip("::1")));
    assert_eq!(classify("[::ffff:8.8.8.8]").unwrap(), Host::Ip(ip("::ffff:8.8.8.8")));
    assert_eq!(classify("localhost").unwrap(), Host::Name("localhost".into()));
    assert_eq!(classify("llm.internal.").unwrap(), Host::Name("llm.internal.".into()));
    assert_eq!(classify("127.0.0.1.example").unwrap(), Host::Name("127.0.0.1.example".into()));
}

#[test]
fn classify_refuses_numeric_spellings() {
    for host in [
        "2130706433",
        "127.1",
        "0x7f.0.0.1",
        "0x7f000001",
        "0177.0.0.1",
        "127.000.000.001",
        "127.0.0.1.",
    ] {
        assert!(
            matches!(classify(host), Err(crate::Error::AmbiguousHost { .. })),
            "{host} is refused: {:?}",
            classify(host)
        );
    }
}

#[test]
fn check_requires_every_address_to_be_loopback() {
    let mixed = |_: &str, port: u16| -> io::Result<Vec<SocketAddr>> {
        Ok(vec![SocketAddr::new(ip("127.0.0.1"), port), SocketAddr::new(ip("93.184.216.34"), port)])
    };
    let error = check("llm.test", 11434, &mixed).unwrap_err();
    assert_eq!(
        error,
        crate::Error::NonLoopback { host: "llm.test".into(), address: ip("93.184.216.34") }
    );
}

#[test]
fn check_canonicalizes_pins_the_port_and_deduplicates() {
    let resolver = |_: &str, _: u16| -> io::Result<Vec<SocketAddr>> {
        Ok(vec![
            "[::ffff:127.0.0.1]:1".parse().unwrap(),
            "127.0.0.1:2".parse().unwrap(),
            "[::1]:3".parse().unwrap(),
        ])
    };
    let checked = check("localhost", 8080, &resolver).unwrap();
    assert_eq!(
        checked,
        vec!["127.0.0.1:8080".parse().unwrap(), "[::1]:8080".parse::<SocketAddr>().unwrap()]
    );
}

#[test]
fn literal_addresses_skip_the_resolver() {
    let never = |host: &str, _: u16| -> io::Result<Vec<SocketAddr>> {
        panic!("resolver called for {host}")
    };
    assert_eq!(check("127.0.0.1", 1, &never).unwrap(), vec!["127.0.0.1:1".parse().unwrap()]);
    assert!(matches!(check("[::ffff:8.8.8.8]", 1, &never), Err(crate::Error::NonLoopback { .. })));
    assert!(matches!(check("0.0.0.0", 1, &never), Err(crate::Error::NonLoopback { .. })));
}

#[test]
fn resolver_failures_and_empty_answers_are_errors() {
    let failing =
        |_: &str, _: u16| -> io::Result<Vec<SocketAddr>> { Err(io::Error::other("no such host")) };
    assert!(matches!(check("nowhere", 1, &failing), Err(crate::Error::Resolve { .. })));
    let empty = |_: &str, _: u16| -> io::Result<Vec<SocketAddr>> { Ok(Vec::new()) };
    assert!(matches!(check("nowhere", 1, &empty), Err(crate::Error::Resolve { .. })));
}
