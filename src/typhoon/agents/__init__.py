"""Language-model agents (issue 16 point 2): the MCP server of ``typhoon mcp``."""
