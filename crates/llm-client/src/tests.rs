use super::*;

#[test]
fn token_estimate_counts_ascii_in_quarters_and_the_rest_whole() {
    assert_eq!(estimate_tokens(&[]), 0);
    assert_eq!(estimate_tokens(&["abcd"]), 1);
    assert_eq!(estimate_tokens(&["abcd", "e"]), 2);
    assert_eq!(estimate_tokens(&["日本語", "ab"]), 4);
}

#[test]
fn context_size_covers_prompt_and_reply_in_steps() {
    assert_eq!(ollama::context_size("", "", 512), 2048);
    // 40,000 ASCII characters ≈ 10,000 tokens, plus 512 for the reply and 256 for the template.
    let user = "x".repeat(40_000);
    assert_eq!(ollama::context_size("", &user, 512), 11 * 1024);
    let japanese = "語".repeat(6_000);
    assert_eq!(ollama::context_size("", &japanese, 512), 7 * 1024);
}

#[test]
fn empty_model_means_none() {
    assert_eq!(ClientConfig::new("http://127.0.0.1:1").with_model("  ").model, None);
    assert_eq!(
        ClientConfig::new("http://127.0.0.1:1").with_model("qwen").model.as_deref(),
        Some("qwen")
    );
}
