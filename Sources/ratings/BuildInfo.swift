/// What `ratings --version` says: the release, and the commit the binary was built from (read
/// from the checkout's `.git` at build time by the EmbedFiles plugin, or from
/// `RATINGS_BUILD_COMMIT` where there is no checkout, as in a container build).
enum BuildInfo {
    /// The release number; raised with each release.
    static let version = "1.5.0"
    /// The commit's full hash, or `unknown`.
    static let commit = embeddedBuildCommit
}
