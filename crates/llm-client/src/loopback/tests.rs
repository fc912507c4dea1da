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
fn localhost_is_both_loopback_addresses_without_a_lookup() {
    let both: Vec<SocketAddr> =
        vec!["127.0.0.1:8080".parse().unwrap(), "[::1]:8080".parse().unwrap()];
    for host in ["localhost", "LocalHost", "localhost."] {
        assert_eq!(check(host, 8080).unwrap(), both, "{host}");
    }
}

#[test]
fn every_other_name_is_refused_unresolved() {
    for host in ["localhost.evil.example", "llm.test", "localhost6", "my-laptop", "localhost.."] {
        assert_eq!(check(host, 1), Err(crate::Error::HostName { host: host.to_owned() }), "{host}");
    }
}

#[test]
fn literals_are_checked_canonicalized_and_pinned_to_the_port() {
    assert_eq!(check("127.0.0.1", 1).unwrap(), vec!["127.0.0.1:1".parse().unwrap()]);
    assert_eq!(
        check("[::ffff:127.0.0.2]", 9).unwrap(),
        vec!["127.0.0.2:9".parse::<SocketAddr>().unwrap()]
    );
    assert!(matches!(check("[::ffff:8.8.8.8]", 1), Err(crate::Error::NonLoopback { .. })));
    assert!(matches!(check("0.0.0.0", 1), Err(crate::Error::NonLoopback { .. })));
    assert!(matches!(check("[::]", 1), Err(crate::Error::NonLoopback { .. })));
}
